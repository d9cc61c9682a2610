package company.data.compactor.model;

/**
 * One top-level column of a table schema.
 *
 * @param name column name as the schema spells it
 * @param type Delta type name, e.g. {@code string}, {@code long}, {@code decimal(10,2)}
 * @param nullable whether the schema allows nulls
 */
public record Column(String name, String type, boolean nullable) {}
