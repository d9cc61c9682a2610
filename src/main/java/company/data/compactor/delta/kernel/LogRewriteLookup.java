package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.RewriteLookup;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@link RewriteLookup} over the JSON commits in {@code _delta_log/}, read through the storage port
 * (the commits after a version are what a checkpoint does not replace: they are all still there
 * while a run holds its table's lease, since log cleanup runs only in the run's last step).
 */
public final class LogRewriteLookup implements RewriteLookup {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Storage storage;

  /** Reads logs on {@code storage}. */
  public LogRewriteLookup(Storage storage) {
    this.storage = storage;
  }

  @Override
  public Optional<Rewrite> committedRewrite(
      TableLocation location, long afterVersion, Set<String> removedLogPaths) {
    if (removedLogPaths.isEmpty()) {
      return Optional.empty();
    }
    String first =
        location.child("_delta_log/" + String.format(Locale.ROOT, "%020d", afterVersion + 1));
    List<StoredObject> commits;
    try {
      commits =
          storage.listFrom(first).stream().filter(o -> o.name().matches("\\d{20}\\.json")).toList();
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw Errors.operationFailed("listing the log of " + location + " after " + afterVersion, e);
    }
    for (StoredObject commit : commits) {
      Optional<Rewrite> rewrite = rewriteOf(commit, removedLogPaths);
      if (rewrite.isPresent()) {
        return rewrite;
      }
    }
    return Optional.empty();
  }

  private Optional<Rewrite> rewriteOf(StoredObject commit, Set<String> paths) {
    Set<String> removed = new HashSet<>();
    int added = 0;
    long addedBytes = 0;
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(storage.openFrom(commit.path(), 0), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode action = JSON.readTree(line);
        JsonNode add = action.get("add");
        if (add != null) {
          added++;
          addedBytes += add.path("size").asLong(0);
        }
        JsonNode remove = action.get("remove");
        if (remove != null
            && remove.hasNonNull("path")
            && !remove.path("dataChange").asBoolean(true)) {
          removed.add(remove.get("path").asText());
        }
      }
    } catch (IOException e) {
      throw Errors.operationFailed("reading commit " + commit.path(), e);
    }
    return removed.containsAll(paths)
        ? Optional.of(
            new Rewrite(Long.parseLong(commit.name().substring(0, 20)), added, addedBytes))
        : Optional.empty();
  }
}
