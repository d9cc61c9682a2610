package company.data.compactor.lease;

import company.data.compactor.error.Errors;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * {@link ReplayLedger} on local disk, for a webhook run without a lease table: one file per digest
 * under {@code directory} holding the epoch millisecond it may be forgotten, written under an
 * exclusive file lock so two processes cannot both record one digest.
 */
public final class FileReplayLedger implements ReplayLedger {

  /** Ledger files live here, relative to the work directory. */
  public static final String DEFAULT_RELATIVE_PATH = ".delta-compactor/replays";

  private final Path directory;

  public FileReplayLedger(Path directory) {
    this.directory = directory.toAbsolutePath();
  }

  @Override
  public synchronized boolean recordFirstUse(String digest, Instant now, Instant forgetAt) {
    if (!digest.matches("[0-9a-f]{16,128}")) {
      throw new IllegalArgumentException("a ledger digest is lower-case hex, not " + digest);
    }
    Path file = directory.resolve(digest);
    try {
      Files.createDirectories(directory);
      try (FileChannel channel =
              FileChannel.open(
                  file,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        java.nio.ByteBuffer buffer =
            java.nio.ByteBuffer.allocate((int) Math.min(channel.size(), 64));
        channel.read(buffer, 0);
        String recorded =
            new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).strip();
        if (!recorded.isEmpty() && Long.parseLong(recorded) > now.toEpochMilli()) {
          return false;
        }
        channel.truncate(0);
        channel.write(
            java.nio.ByteBuffer.wrap(
                Long.toString(forgetAt.toEpochMilli()).getBytes(StandardCharsets.US_ASCII)),
            0);
        return true;
      }
    } catch (IOException | NumberFormatException e) {
      throw Errors.operationFailed("recording a signed webhook request in " + directory, e);
    }
  }
}
