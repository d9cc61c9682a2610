package company.data.compactor.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A table whose file carries a deletion vector, its log written by hand as Spark or Databricks
 * leave it after a DELETE: protocol 3/7 with the deletionVectors feature; {@code a.parquet} (ids 0,
 * 1, 2) with an inline vector deleting id 1, {@code b.parquet} (ids 3, 4, 5) without one. Readers
 * see ids 0, 2, 3, 4, 5.
 */
public final class DeletionVectorTables {

  /**
   * The inline vector's descriptor in {@code a.parquet}'s add, as logged: the portable
   * RoaringBitmapArray of row 1 (magic, one bitmap, key 0, the 32-bit roaring bitmap {1}), Z85
   * encoded, as Delta Lake writes inline vectors.
   */
  public static final String INLINE_DV =
      "{\"storageType\":\"i\",\"pathOrInlineDv\":\"^Bg9^0rr910000000000iXQKl0rr91000005c8Xg0rr91\",\"sizeInBytes\":34,\"cardinality\":1}";

  private DeletionVectorTables() {}

  /** Writes the table at {@code table} (created). */
  public static Path inlineDeletionVector(Path table) throws Exception {
    Files.createDirectories(table);
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT range AS id FROM range(0, 3)) TO '"
              + table.resolve("a.parquet")
              + "' (FORMAT parquet)");
      s.execute(
          "COPY (SELECT range AS id FROM range(3, 6)) TO '"
              + table.resolve("b.parquet")
              + "' (FORMAT parquet)");
    }
    long sizeA = Files.size(table.resolve("a.parquet"));
    long sizeB = Files.size(table.resolve("b.parquet"));
    String schema =
        "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}";
    String log =
        String.join(
            "\n",
            "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"WRITE\"}}",
            "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\"],\"writerFeatures\":[\"deletionVectors\"]}}",
            "{\"metaData\":{\"id\":\"6f0c8c1e-0000-4000-8000-000000000001\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
                + "\"schemaString\":\""
                + schema
                + "\",\"partitionColumns\":[],"
                + "\"configuration\":{\"delta.enableDeletionVectors\":\"true\"},\"createdTime\":1}}",
            "{\"add\":{\"path\":\"a.parquet\",\"partitionValues\":{},\"size\":"
                + sizeA
                + ",\"modificationTime\":1,\"dataChange\":true,"
                + "\"stats\":\"{\\\"numRecords\\\":3}\","
                + "\"deletionVector\":"
                + INLINE_DV
                + "}}",
            "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{},\"size\":"
                + sizeB
                + ",\"modificationTime\":2,\"dataChange\":true,"
                + "\"stats\":\"{\\\"numRecords\\\":3}\"}}",
            "");
    Files.createDirectories(table.resolve("_delta_log"));
    Files.writeString(table.resolve("_delta_log/00000000000000000000.json"), log);
    return table;
  }
}
