package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import io.delta.kernel.commit.CommitMetadata;
import io.delta.kernel.internal.tablefeatures.TableFeatures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * Judges one commit another writer landed at the version a rewrite tried: whether the rewrite's
 * actions can go to the next version unchanged. Only a commit proven harmless says yes: every line
 * one of {@code commitInfo}, {@code add}, {@code cdc}, {@code txn}, or a {@code remove} of a file
 * the rewrite does not remove. A protocol, metadata or domain-metadata action, a remove of one of
 * the rewrite's inputs (however its path is spelled), an unknown action or an unreadable line says
 * no, and kernel's full conflict resolution decides instead.
 */
final class FastRebase {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> HARMLESS = Set.of("commitInfo", "add", "cdc", "txn");

  private final TableLocation location;
  private final Set<String> inputs;

  private FastRebase(TableLocation location, Set<String> inputs) {
    this.location = location;
    this.inputs = inputs;
  }

  /** A judge for a rewrite of {@code removed} in the table at {@code location}. */
  static FastRebase forInputs(TableLocation location, Collection<DataFile> removed) {
    Set<String> inputs = new HashSet<>();
    for (DataFile file : removed) {
      inputs.add(file.path());
      try {
        inputs.add(KernelLogReader.resolve(location, file.logPath()));
      } catch (RuntimeException e) {
        // The resolved path is already known; a log path that does not parse adds nothing.
      }
    }
    return new FastRebase(location, inputs);
  }

  /**
   * Whether a commit's bytes do not depend on the version they land at: no in-commit timestamp, no
   * domain metadata, no protocol or metadata change, no row tracking (whose row ids are assigned
   * from the version before).
   */
  static boolean contentIndependentOfVersion(CommitMetadata metadata) {
    return metadata.getCommitInfo().getInCommitTimestamp().isEmpty()
        && metadata.getCommitDomainMetadatas().isEmpty()
        && metadata.getNewProtocolOpt().isEmpty()
        && metadata.getNewMetadataOpt().isEmpty()
        && !TableFeatures.isRowTrackingSupported(metadata.getEffectiveProtocol());
  }

  /** Whether the foreign commit {@code content} provably cannot conflict with the rewrite. */
  boolean cannotConflict(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode action;
      try {
        action = JSON.readTree(line);
      } catch (IOException e) {
        return false;
      }
      if (action == null || !action.isObject() || action.size() != 1) {
        return false;
      }
      Iterator<String> names = action.fieldNames();
      String name = names.next();
      if (name.equals("remove")) {
        if (removesAnInput(action.get(name))) {
          return false;
        }
      } else if (!HARMLESS.contains(name)) {
        return false;
      }
    }
    return true;
  }

  private boolean removesAnInput(JsonNode remove) {
    JsonNode path = remove.get("path");
    if (path == null || !path.isTextual()) {
      return true;
    }
    try {
      return inputs.contains(KernelLogReader.resolve(location, path.asText()));
    } catch (RuntimeException e) {
      // A path we cannot resolve might name an input: let kernel decide.
      return true;
    }
  }
}
