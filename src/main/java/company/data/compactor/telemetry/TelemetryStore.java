package company.data.compactor.telemetry;

/** A telemetry store that records runs and reads their history back. */
public interface TelemetryStore extends TelemetrySink, TelemetryHistory {}
