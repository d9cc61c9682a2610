package company.data.compactor.compact;

import company.data.compactor.model.DataFile;

/**
 * Expected output size of rewritten files. Merging small files saves each file's fixed overhead
 * (footer, schema, page and dictionary headers), so a bin's output is smaller than its input;
 * filling bins by input size would land outputs far under target and rewrite them again next
 * run (delta-rs #2576). The model removes an estimated per-file overhead, never more than half a
 * file, and adds one overhead per output.
 *
 * @param perFileOverheadBytes the fixed cost of one Parquet file
 */
public record OutputSizeModel(long perFileOverheadBytes) {

  /** 4 KiB: a small Parquet file's footer and headers, as measured on the demo table. */
  public static final OutputSizeModel DEFAULT = new OutputSizeModel(4 * 1024);

  /** The bytes {@code file} contributes to a merged output. */
  public long payloadBytes(DataFile file) {
    long overhead = Math.min(perFileOverheadBytes, file.sizeBytes() / 2);
    return file.sizeBytes() - overhead;
  }

  /** Expected size of one output holding {@code payload} bytes. */
  public long outputBytes(long payload) {
    return payload + perFileOverheadBytes;
  }
}
