package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the log says about one of our transactions after its commit failed or conflicted: the
 * version whose commit info carries our {@code txnId}, if any, and which of our new files any
 * commit after the read version adds. Read straight from the JSON commits, so it does not depend on
 * kernel's view of a transaction that just failed.
 *
 * @param latestVersion the newest JSON commit found
 * @param ourVersion the version holding our transaction, empty when none does
 * @param referencedNewPaths those of our new files' log paths that some commit adds
 */
record CommitEvidence(long latestVersion, OptionalLong ourVersion, Set<String> referencedNewPaths) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern COMMIT_FILE = Pattern.compile("\\d{20}\\.json");

  CommitEvidence {
    referencedNewPaths = Set.copyOf(referencedNewPaths);
  }

  /** Whether our transaction landed. */
  boolean landed() {
    return ourVersion.isPresent();
  }

  /** Whether the log proves no commit references any of our new files, so they may be deleted. */
  boolean newFilesUnreferenced() {
    return ourVersion.isEmpty() && referencedNewPaths.isEmpty();
  }

  /**
   * Reads every JSON commit after {@code readVersion}.
   *
   * @param txnId our transaction's id, as kernel writes it in {@code commitInfo.txnId} (null when
   *     no attempt got as far as writing one)
   * @param newLogPaths the {@code add.path} values of our new files
   * @throws IOException when the log cannot be listed or read: then nothing is proven
   */
  static CommitEvidence read(
      Storage storage,
      TableLocation table,
      long readVersion,
      String txnId,
      Collection<String> newLogPaths)
      throws IOException {
    String logDir = table.child("_delta_log");
    long latest = readVersion;
    OptionalLong ours = OptionalLong.empty();
    Set<String> referenced = new HashSet<>();
    for (StoredObject object :
        storage.listFrom(logDir + "/" + String.format("%020d", readVersion + 1))) {
      String name = object.path().substring(object.path().lastIndexOf('/') + 1);
      if (!COMMIT_FILE.matcher(name).matches()) {
        continue;
      }
      long version = Long.parseLong(name.substring(0, 20));
      latest = Math.max(latest, version);
      String content;
      try (InputStream in = storage.openFrom(object.path(), 0)) {
        content = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (FileNotFoundException e) {
        throw new IOException("commit " + object.path() + " was listed but cannot be read", e);
      }
      for (String line : content.split("\n")) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode action = JSON.readTree(line);
        JsonNode info = action.get("commitInfo");
        if (info != null && txnId != null && txnId.equals(info.path("txnId").asText(null))) {
          ours = OptionalLong.of(version);
        }
        JsonNode add = action.get("add");
        if (add != null && newLogPaths.contains(add.path("path").asText())) {
          referenced.add(add.path("path").asText());
        }
      }
    }
    return new CommitEvidence(latest, ours, referenced);
  }

  /** Whether the stored bytes are exactly ours. */
  static boolean sameBytes(Optional<byte[]> stored, byte[] ours) {
    return stored.isPresent() && Arrays.equals(stored.get(), ours);
  }
}
