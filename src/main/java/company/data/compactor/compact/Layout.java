package company.data.compactor.compact;

/** How rewritten files order their rows. */
public enum Layout {
  /** Rows keep their input order; files are only merged. */
  BIN_PACK,
  /** Rows are clustered by the interleaved bits of the Z-order columns. */
  Z_ORDER
}
