package company.data.compactor.compact;

import company.data.compactor.model.Column;
import company.data.compactor.model.FilterLimits;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A predicate over partition values only, parsed from text such as {@code event_date >=
 * '2026-10-18' AND region IN ('eu', 'us')}. It is evaluated in Java against each file's partition
 * values; it is never concatenated into SQL.
 *
 * <p>Grammar: comparisons {@code = != <> < <= > >=} against a literal ({@code 'text'} with {@code
 * ''} for a quote, or a number), {@code [NOT] IN (literal, ...)}, {@code IS [NOT] NULL}, combined
 * with {@code AND}, {@code OR}, {@code NOT} and parentheses. Column names may be quoted with
 * backticks or double quotes. Numeric partition columns compare as numbers, all others as text (ISO
 * dates and timestamps order correctly as text). A comparison with a NULL partition value is false,
 * as in SQL. A filter longer than {@link FilterLimits#MAX_CHARS} characters or nesting parentheses
 * deeper than {@link FilterLimits#MAX_DEPTH} is refused.
 */
public final class PartitionFilter {

  private static final PartitionFilter ALL = new PartitionFilter("", values -> true);

  private final String text;
  private final Node root;

  private PartitionFilter(String text, Node root) {
    this.text = text;
    this.root = root;
  }

  /** The filter that keeps every partition. */
  public static PartitionFilter all() {
    return ALL;
  }

  /**
   * Parses {@code text} against {@code schema}.
   *
   * @throws IllegalArgumentException naming the problem (a limit of {@link FilterLimits}, unknown
   *     or non-partition column, bad literal, syntax) and where it is
   */
  public static PartitionFilter parse(String text, TableSchema schema) {
    if (text == null || text.isBlank()) {
      return ALL;
    }
    List<String> exceeded = FilterLimits.exceeded(text);
    if (!exceeded.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", exceeded));
    }
    Parser parser = new Parser(text, schema);
    Node root = parser.parseOr();
    parser.expectEnd();
    return new PartitionFilter(text.strip(), root);
  }

  /** Whether files of this partition are in scope. */
  public boolean matches(PartitionValues partition) {
    return root.test(partition);
  }

  /** Whether this filter keeps everything. */
  public boolean isAll() {
    return this == ALL;
  }

  /** The filter as the user wrote it; empty for {@link #all()}. */
  public String text() {
    return text;
  }

  @Override
  public String toString() {
    return isAll() ? "(all partitions)" : text;
  }

  private interface Node {
    boolean test(PartitionValues values);
  }

  private enum Op {
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE;

    boolean holds(int cmp) {
      return switch (this) {
        case EQ -> cmp == 0;
        case NE -> cmp != 0;
        case LT -> cmp < 0;
        case LE -> cmp <= 0;
        case GT -> cmp > 0;
        case GE -> cmp >= 0;
      };
    }
  }

  /** How values of one partition column compare. */
  private record Typed(String column, boolean numeric) {

    Object parseLiteral(String literal, boolean quoted, int at, String source) {
      if (!numeric) {
        return literal;
      }
      try {
        return new BigDecimal(literal.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "partition column "
                + column
                + " is numeric, but "
                + (quoted ? "'" + literal + "'" : literal)
                + " at position "
                + (at + 1)
                + " of \""
                + source
                + "\" is not a number");
      }
    }

    int compare(String value, Object literal) {
      if (numeric) {
        return new BigDecimal(value.strip()).compareTo((BigDecimal) literal);
      }
      return value.compareTo((String) literal);
    }
  }

  private static final class Parser {
    private final String src;
    private final TableSchema schema;
    private int pos;

    Parser(String src, TableSchema schema) {
      this.src = src;
      this.schema = schema;
    }

    // Chains of AND, OR and NOT are loops over flat lists, so only parenthesised groups recurse,
    // and FilterLimits bounds their depth.
    Node parseOr() {
      List<Node> terms = new ArrayList<>(List.of(parseAnd()));
      while (keyword("OR")) {
        terms.add(parseAnd());
      }
      return terms.size() == 1 ? terms.get(0) : v -> terms.stream().anyMatch(t -> t.test(v));
    }

    Node parseAnd() {
      List<Node> factors = new ArrayList<>(List.of(parseNot()));
      while (keyword("AND")) {
        factors.add(parseNot());
      }
      return factors.size() == 1 ? factors.get(0) : v -> factors.stream().allMatch(f -> f.test(v));
    }

    Node parseNot() {
      boolean negated = false;
      while (keyword("NOT")) {
        negated = !negated;
      }
      Node inner = parsePrimary();
      return negated ? v -> !inner.test(v) : inner;
    }

    Node parsePrimary() {
      skipSpace();
      if (peek('(')) {
        pos++;
        Node inner = parseOr();
        expect(')');
        return inner;
      }
      return parsePredicate();
    }

    Node parsePredicate() {
      int columnAt = skipSpaceAt();
      String column = identifier();
      Typed typed = partitionColumn(column, columnAt);
      if (keyword("IS")) {
        boolean negated = keyword("NOT");
        if (!keyword("NULL")) {
          throw syntax("NULL after IS");
        }
        return v -> (v.values().get(column) == null) != negated;
      }
      boolean negatedIn = false;
      int save = pos;
      if (keyword("NOT")) {
        negatedIn = true;
        if (!keywordAhead("IN")) {
          pos = save;
          throw syntax("IN after NOT");
        }
      }
      if (keyword("IN")) {
        expect('(');
        List<Object> literals = new ArrayList<>();
        do {
          literals.add(literal(typed));
        } while (consume(','));
        expect(')');
        boolean negated = negatedIn;
        return v -> {
          String value = v.values().get(column);
          if (value == null) {
            return false;
          }
          boolean in = literals.stream().anyMatch(l -> typed.compare(value, l) == 0);
          return in != negated;
        };
      }
      Op op = operator();
      Object literal = literal(typed);
      return v -> {
        String value = v.values().get(column);
        return value != null && op.holds(typed.compare(value, literal));
      };
    }

    private Typed partitionColumn(String column, int at) {
      Column found =
          schema
              .column(column)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "unknown column "
                              + column
                              + " at position "
                              + (at + 1)
                              + " of \""
                              + src
                              + "\"; partition columns: "
                              + String.join(", ", schema.partitionColumns())));
      if (!schema.isPartitionColumn(column)) {
        throw new IllegalArgumentException(
            column
                + " is not a partition column; a partition filter may only use "
                + (schema.partitionColumns().isEmpty()
                    ? "partition columns, and this table has none"
                    : String.join(", ", schema.partitionColumns())));
      }
      String type = found.type();
      boolean numeric =
          type.equals("byte")
              || type.equals("short")
              || type.equals("integer")
              || type.equals("long")
              || type.equals("float")
              || type.equals("double")
              || type.startsWith("decimal");
      return new Typed(column, numeric);
    }

    private Op operator() {
      skipSpace();
      for (String[] candidate :
          new String[][] {
            {"<=", "LE"},
            {">=", "GE"},
            {"<>", "NE"},
            {"!=", "NE"},
            {"=", "EQ"},
            {"<", "LT"},
            {">", "GT"}
          }) {
        if (src.startsWith(candidate[0], pos)) {
          pos += candidate[0].length();
          return Op.valueOf(candidate[1]);
        }
      }
      throw syntax("a comparison (=, !=, <>, <, <=, >, >=), IN or IS");
    }

    private Object literal(Typed typed) {
      int at = skipSpaceAt();
      if (peek('\'')) {
        StringBuilder value = new StringBuilder();
        pos++;
        while (true) {
          if (pos >= src.length()) {
            throw new IllegalArgumentException(
                "unterminated string starting at position " + (at + 1) + " of \"" + src + "\"");
          }
          char c = src.charAt(pos++);
          if (c == '\'') {
            if (peek('\'')) {
              value.append('\'');
              pos++;
            } else {
              break;
            }
          } else {
            value.append(c);
          }
        }
        return typed.parseLiteral(value.toString(), true, at, src);
      }
      int start = pos;
      while (pos < src.length()
          && (Character.isDigit(src.charAt(pos)) || "+-.eE".indexOf(src.charAt(pos)) >= 0)) {
        pos++;
      }
      if (start == pos) {
        throw syntax("a literal ('text' or a number)");
      }
      String number = src.substring(start, pos);
      try {
        new BigDecimal(number);
      } catch (NumberFormatException e) {
        throw syntax("a number");
      }
      return typed.numeric() ? new BigDecimal(number) : number;
    }

    private String identifier() {
      skipSpace();
      if (peek('`') || peek('"')) {
        char quote = src.charAt(pos++);
        int end = src.indexOf(quote, pos);
        if (end < 0) {
          throw syntax("a closing " + quote);
        }
        String name = src.substring(pos, end);
        pos = end + 1;
        return name;
      }
      int start = pos;
      while (pos < src.length()
          && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
        pos++;
      }
      if (start == pos) {
        throw syntax("a partition column name");
      }
      return src.substring(start, pos);
    }

    private boolean keyword(String word) {
      skipSpace();
      if (keywordAt(word)) {
        pos += word.length();
        return true;
      }
      return false;
    }

    private boolean keywordAhead(String word) {
      skipSpace();
      return keywordAt(word);
    }

    private boolean keywordAt(String word) {
      int end = pos + word.length();
      return end <= src.length()
          && src.substring(pos, end).toUpperCase(Locale.ROOT).equals(word)
          && (end == src.length()
              || !(Character.isLetterOrDigit(src.charAt(end)) || src.charAt(end) == '_'));
    }

    private boolean consume(char c) {
      skipSpace();
      if (peek(c)) {
        pos++;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      if (!consume(c)) {
        throw syntax("'" + c + "'");
      }
    }

    void expectEnd() {
      skipSpace();
      if (pos < src.length()) {
        throw syntax("AND, OR or the end");
      }
    }

    private boolean peek(char c) {
      return pos < src.length() && src.charAt(pos) == c;
    }

    private void skipSpace() {
      while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
        pos++;
      }
    }

    private int skipSpaceAt() {
      skipSpace();
      return pos;
    }

    private IllegalArgumentException syntax(String expected) {
      String found =
          pos >= src.length()
              ? "the end"
              : "'" + src.substring(pos, Math.min(src.length(), pos + 12)) + "'";
      return new IllegalArgumentException(
          "expected "
              + expected
              + " at position "
              + (pos + 1)
              + " of \""
              + src
              + "\", found "
              + found);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionFilter other && Objects.equals(text, other.text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }
}
