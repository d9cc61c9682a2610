package company.data.compactor.sweep;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Removes what killed runs left behind, at the start of a run (after the request is validated and
 * the table's lease taken): abandoned scratch directories under the work directory (rewrite
 * scratch, S3 upload buffers) and our own temporary objects in the table, as {@link SweepPlanner}
 * decides. A scratch directory is deleted only while this sweep holds its lock ({@link
 * Scratch#lockIfAbandoned}), so a live run's scratch, in this process or another, is never touched
 * however old it looks. The one without a lock file that is removed is an empty one (a run killed
 * between making it and its lock file), and only by an rmdir, which fails once anything is in it.
 *
 * <p>Sweeping is housekeeping: a failure (a listing or a delete that fails) is returned in {@link
 * SweepResult#failure()} and logged, never thrown, and the run goes on.
 */
public final class Sweeper {

  private static final System.Logger LOG = System.getLogger(Sweeper.class.getName());

  private final Storage storage;
  private final List<Path> scratchRoots;
  private final SweepPolicy policy;
  private final Clock clock;

  /**
   * @param storage the table's storage
   * @param scratchRoots where runs make their scratch directories ({@link Scratch#create}): the
   *     rewrite's scratch root and the S3 upload buffers' directory
   * @param policy how old leftovers must be
   * @param clock the time source the cutoffs are taken from
   */
  public Sweeper(Storage storage, List<Path> scratchRoots, SweepPolicy policy, Clock clock) {
    this.storage = storage;
    this.scratchRoots = List.copyOf(scratchRoots);
    this.policy = policy;
    this.clock = clock;
  }

  /** What a sweep may remove. */
  public enum Scope {
    /** Stale scratch of killed runs and our stale temporary objects in the table. */
    SCRATCH_AND_TABLE,
    /** Stale scratch only: the table is left untouched (a dry run promises that). */
    SCRATCH_ONLY
  }

  /** Sweeps the scratch roots and the table at {@code table}; logs one line with the counts. */
  public SweepResult sweep(TableLocation table) {
    return sweep(table, Scope.SCRATCH_AND_TABLE);
  }

  /**
   * Sweeps the scratch roots and, for {@link Scope#SCRATCH_AND_TABLE}, our stale temporary objects
   * in the table (named exactly as {@link company.data.compactor.storage.LocalStorage} names them);
   * logs one line with the counts.
   */
  public SweepResult sweep(TableLocation table, Scope scope) {
    return sweep(table, scope, null);
  }

  /**
   * A sweep of the scratch roots and the table ({@link Scope#SCRATCH_AND_TABLE}), and the table's
   * files as it listed them.
   *
   * @param tableFiles every file under the table root, less the temporary objects this sweep
   *     deleted; null when the listing failed
   */
  public record Listed(SweepResult result, List<StoredObject> tableFiles) {}

  /**
   * Sweeps as {@link #sweep(TableLocation, Scope)} with {@link Scope#SCRATCH_AND_TABLE} and hands
   * back the table's listing, so a vacuum that follows need not list a big table a second time.
   */
  public Listed sweepAndList(TableLocation table) {
    return sweepListed(table, listTable(table));
  }

  /**
   * The table's files, or why they could not be listed. Read-only: nothing is swept, so it may be
   * taken before the run has checked the table (a vacuum lists while the snapshot loads).
   *
   * @param objects every object below the table root; null when the listing failed
   * @param failure why the listing failed; null when it did not
   */
  public record TableListing(List<StoredObject> objects, String failure) {}

  /** Lists every object below the table root ({@link TableListing}); never throws for storage. */
  public TableListing listTable(TableLocation table) {
    try {
      return new TableListing(storage.listRecursively(table.uri()), null);
    } catch (IOException | UncheckedIOException e) {
      return new TableListing(null, e.getMessage());
    }
  }

  /**
   * {@link #sweepAndList} over a listing already taken by {@link #listTable}: sweeps the scratch
   * roots and our stale temporary objects among {@code listing}, and hands back the listing less
   * what it deleted.
   */
  public Listed sweepListed(TableLocation table, TableListing listing) {
    if (listing.objects() == null) {
      return new Listed(
          logged(table, failed(clock.instant(), "listing leftovers failed: " + listing.failure())),
          null);
    }
    List<StoredObject> listed = listing.objects();
    SweepResult result = sweep(table, Scope.SCRATCH_AND_TABLE, listed);
    Instant cutoff = result.temporaryObjectCutoff();
    List<StoredObject> left =
        result.temporaryObjectsSwept() == 0
            ? listed
            : listed.stream()
                .filter(
                    o ->
                        !SweepPlanner.isOurTemporaryObject(o)
                            || o.modificationTimeMillis() >= cutoff.toEpochMilli())
                .toList();
    return new Listed(result, left);
  }

  private SweepResult sweep(TableLocation table, Scope scope, List<StoredObject> listed) {
    Instant now = clock.instant();
    SweepPlan plan;
    try {
      boolean tableToo = scope == Scope.SCRATCH_AND_TABLE;
      plan =
          SweepPlanner.plan(
              scratchDirectories(),
              !tableToo
                  ? List.of()
                  : listed != null ? listed : storage.listRecursively(table.uri()),
              now,
              policy);
    } catch (IOException | UncheckedIOException e) {
      return logged(table, failed(now, "listing leftovers failed: " + e.getMessage()));
    }
    int swept = 0;
    int inUse = 0;
    long scratchBytes = 0;
    List<String> problems = new ArrayList<>();
    for (ScratchDirectory dir : plan.staleScratch()) {
      try {
        if (!hasLockFile(dir.path())) {
          swept += removedIfStillEmpty(dir.path()) ? 1 : 0;
          continue;
        }
        Optional<Scratch.AbandonedLock> lock = Scratch.lockIfAbandoned(dir.path());
        if (lock.isEmpty()) {
          inUse += Files.exists(dir.path()) ? 1 : 0;
          continue;
        }
        try (Scratch.AbandonedLock held = lock.get()) {
          scratchBytes += Scratch.deleteScratchTree(dir.path());
          swept++;
        }
      } catch (IOException | UncheckedIOException e) {
        problems.add("deleting " + dir.path() + ": " + e.getMessage());
      }
    }
    int objectsSwept = 0;
    long objectBytes = 0;
    if (!plan.staleTemporaryObjects().isEmpty()) {
      try {
        storage.deleteAll(plan.staleTemporaryObjects().stream().map(StoredObject::path).toList());
        objectsSwept = plan.staleTemporaryObjects().size();
        objectBytes = plan.staleTemporaryBytes();
      } catch (IOException | UncheckedIOException e) {
        problems.add(
            "deleting "
                + plan.staleTemporaryObjects().size()
                + " temporary objects in "
                + table
                + ": "
                + e.getMessage());
      }
    }
    return logged(
        table,
        new SweepResult(
            plan.scratchCutoff(),
            plan.temporaryObjectCutoff(),
            swept,
            scratchBytes,
            inUse,
            plan.youngScratch(),
            objectsSwept,
            objectBytes,
            plan.youngTemporaryObjects(),
            problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems))));
  }

  private SweepResult failed(Instant now, String why) {
    return new SweepResult(
        now.minus(policy.scratchMinAge()),
        now.minus(policy.temporaryObjectMinAge()),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        Optional.of(why));
  }

  private SweepResult logged(TableLocation table, SweepResult result) {
    LOG.log(
        result.failure().isPresent() ? Level.WARNING : Level.INFO,
        "sweep: table={0} scratch={1} swept={2} ({3} bytes) in_use={4} young={5};"
            + " temporary_objects swept={6} ({7} bytes) young={8}{9}",
        table,
        scratchRoots,
        result.scratchDirsSwept(),
        result.scratchBytesSwept(),
        result.scratchDirsInUse(),
        result.scratchDirsKeptYoung(),
        result.temporaryObjectsSwept(),
        result.temporaryObjectBytesSwept(),
        result.temporaryObjectsKeptYoung(),
        result.failure().map(f -> "; failed, the run goes on: " + f).orElse(""));
    return result;
  }

  /** The directories directly under the scratch roots, with their modification times. */
  private List<ScratchDirectory> scratchDirectories() throws IOException {
    List<ScratchDirectory> found = new ArrayList<>();
    for (Path root : scratchRoots) {
      // A root that is a link may lead into anyone's directory: never swept.
      if (Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
        listDirectories(root, found);
      } else if (Files.isSymbolicLink(root)) {
        LOG.log(Level.WARNING, "sweep: scratch root {0} is a symbolic link; not swept", root);
      }
    }
    return found;
  }

  private static boolean hasLockFile(Path dir) {
    return Files.isRegularFile(dir.resolve(Scratch.LOCK_FILE), LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Removes a stale scratch directory listed empty and without a lock file: a run killed between
   * creating its directory and its lock file ({@link Scratch#create}), or while deleting it ({@link
   * Scratch#deleteScratchTree}). Only an empty directory can go (rmdir): if anything is in it by
   * now, a live run's new lock file or anyone's file, it stays.
   */
  private static boolean removedIfStillEmpty(Path dir) throws IOException {
    try (DirectoryStream<Path> root = Files.newDirectoryStream(dir.getParent())) {
      if (root instanceof SecureDirectoryStream<Path> secure) {
        // rmdir itself (unlinkat AT_REMOVEDIR): a file or a link in the directory's place stays.
        secure.deleteDirectory(dir.getFileName());
      } else if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        Files.delete(dir);
      } else {
        return false;
      }
      return true;
    } catch (DirectoryNotEmptyException | NoSuchFileException | NotDirectoryException e) {
      return false;
    }
  }

  private static boolean isEmpty(Path dir) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      return !entries.iterator().hasNext();
    } catch (IOException e) {
      // Gone, or unreadable (a mount point's lost+found, anyone's private directory): not ours.
      return false;
    }
  }

  private static void listDirectories(Path root, List<ScratchDirectory> found) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
      for (Path entry : entries) {
        BasicFileAttributes attrs;
        try {
          attrs = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue;
        }
        // Only directories Scratch made: they hold its lock file, or are empty (Scratch#create
        // makes the directory, then its lock file: a run killed in between leaves it empty). Only
        // one named like ours is opened to ask; the planner drops every other name anyway.
        if (attrs.isDirectory()
            && (hasLockFile(entry)
                || (SweepPlanner.isScratchOfARun(entry.getFileName().toString())
                    && isEmpty(entry)))) {
          found.add(new ScratchDirectory(entry, attrs.lastModifiedTime().toInstant()));
        }
      }
    }
  }
}
