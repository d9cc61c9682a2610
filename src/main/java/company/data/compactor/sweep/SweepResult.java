package company.data.compactor.sweep;

import java.time.Instant;
import java.util.Optional;

/**
 * What one sweep removed and kept.
 *
 * @param scratchCutoff scratch directories last modified before this were old enough
 * @param temporaryObjectCutoff temporary objects last modified before this were old enough
 * @param scratchDirsSwept abandoned scratch directories deleted
 * @param scratchBytesSwept bytes of the files in them
 * @param scratchDirsInUse scratch directories old enough but locked by a live process, kept
 * @param scratchDirsKeptYoung scratch directories younger than the cutoff, kept
 * @param temporaryObjectsSwept temporary objects deleted from the table
 * @param temporaryObjectBytesSwept their bytes
 * @param temporaryObjectsKeptYoung temporary objects younger than the cutoff, kept
 * @param failure why the sweep stopped, empty when it finished; a failed sweep never fails the run
 */
public record SweepResult(
    Instant scratchCutoff,
    Instant temporaryObjectCutoff,
    int scratchDirsSwept,
    long scratchBytesSwept,
    int scratchDirsInUse,
    int scratchDirsKeptYoung,
    int temporaryObjectsSwept,
    long temporaryObjectBytesSwept,
    int temporaryObjectsKeptYoung,
    Optional<String> failure) {}
