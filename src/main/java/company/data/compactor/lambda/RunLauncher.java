package company.data.compactor.lambda;

/** Starts an accepted run elsewhere and returns at once (the webhook answers 202). */
interface RunLauncher {

  /**
   * Hands {@code handoff} over for asynchronous execution.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when the run could not
   *     be handed over (the caller releases the lease)
   */
  void launch(Handoff handoff);
}
