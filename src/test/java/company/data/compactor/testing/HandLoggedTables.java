package company.data.compactor.testing;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Tables whose log a test writes by hand, on any {@link Storage}, so an add or remove can spell its
 * path the way some other writer does ({@code s3a://}, {@code S3://}, {@code FILE:/}).
 */
public final class HandLoggedTables {

  private static final String SCHEMA =
      "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}";

  private HandLoggedTables() {}

  /** The protocol (1, 2) and metadata of an unpartitioned table of one {@code long} column. */
  public static String[] protocolAndMetadata() {
    return new String[] {
      "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}",
      "{\"metaData\":{\"id\":\"6f0c8c1e-0000-4000-8000-000000000019\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
          + "\"schemaString\":\""
          + SCHEMA
          + "\",\"partitionColumns\":[],\"configuration\":{},\"createdTime\":1}}"
    };
  }

  /** An add of {@code path}, spelled exactly as given. */
  public static String add(String path) {
    return "{\"add\":{\"path\":\""
        + path
        + "\",\"partitionValues\":{},\"size\":8,\"modificationTime\":1,\"dataChange\":true}}";
  }

  /** A remove of {@code path}, spelled exactly as given, at {@code millis}. */
  public static String remove(String path, long millis) {
    return "{\"remove\":{\"path\":\""
        + path
        + "\",\"deletionTimestamp\":"
        + millis
        + ",\"dataChange\":true}}";
  }

  /**
   * Writes commit {@code version} of {@code table}: a commitInfo at {@code millis}, then {@code
   * actions}.
   */
  public static void commit(
      Storage storage, TableLocation table, long version, long millis, String... actions)
      throws IOException {
    StringBuilder log =
        new StringBuilder(
            "{\"commitInfo\":{\"timestamp\":" + millis + ",\"operation\":\"WRITE\"}}\n");
    for (String action : actions) {
      log.append(action).append('\n');
    }
    write(storage, table.child("_delta_log/%020d.json".formatted(version)), log.toString());
  }

  /** Writes a small data file {@code name} under {@code table}. */
  public static void dataFile(Storage storage, TableLocation table, String name)
      throws IOException {
    write(storage, table.child(name), "bytes of " + name);
  }

  private static void write(Storage storage, String path, String text) throws IOException {
    try (OutputStream out = storage.create(path)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
