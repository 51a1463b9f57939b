// The oracle of Apache Phoenix's row keys for tests/phoenix_vectors.rs: creates each table below
// through Phoenix's connectionless driver (`jdbc:phoenix:none`, no cluster), UPSERTs values into
// it, and prints the row key Phoenix builds for each row, as Phoenix's own RowKeySchemaTest reads
// them (the uncommitted mutations of the connection). Edge values first (each type's minimum and
// maximum, 0, -0.0, NaN, infinities, one-character and long strings, NULL in every nullable
// column), then random ones from a fixed seed, so the output is the same on every run.
//
// Output: one line per table, `#TABLE<TAB>name<TAB>DDL` (newlines in the DDL as \n), a line
// `#CELLS<TAB>name<TAB>family:qualifier=value...` (hex) of the cells of its first row, then one
// line per row: `name<TAB>value<TAB>...<TAB>key in hex`, or `!` and the exception's class for
// values Phoenix refuses (it takes no NaN or infinity through a bound FLOAT or DOUBLE). Values: `~` for NULL; integers in
// decimal; FLOAT and DOUBLE as the hex of Java's raw bits (`floatToRawIntBits`,
// `doubleToRawLongBits` of the value bound); BOOLEAN as true or false; strings and bytes in hex;
// DATE, TIME and TIMESTAMP as nanoseconds since the epoch (UTC); DECIMAL in plain decimal
// without trailing zeros (the value Phoenix stores).
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.phoenix.util.PhoenixRuntime;

public class PhoenixKeys {
    /// A column; `past` makes its times ones before 1970 (a negative count of nanoseconds).
    record Col(String name, String type, int width, boolean desc, boolean nullable, boolean past) {
        String sql() {
            String t = width > 0 ? type + "(" + width + ")" : type;
            return "    \"" + name + "\" " + t + (nullable ? "" : " NOT NULL");
        }
    }

    record Table(String name, int buckets, List<Col> cols) {
        String ddl() {
            StringBuilder s = new StringBuilder("CREATE TABLE " + name + " (\n");
            StringBuilder pk = new StringBuilder();
            for (Col c : cols) {
                s.append(c.sql()).append(",\n");
                if (pk.length() > 0) pk.append(", ");
                pk.append('"').append(c.name).append('"').append(c.desc ? " DESC" : "");
            }
            s.append("    CONSTRAINT PK PRIMARY KEY (").append(pk).append(")\n) ");
            if (buckets > 0) s.append("SALT_BUCKETS = ").append(buckets).append(", ");
            return s.append("COLUMN_ENCODED_BYTES = 0").toString();
        }
    }

    /// A column spec: NAME:TYPE[:WIDTH][:DESC][:NULL][:PAST].
    static Col col(String spec) {
        String[] p = spec.split(":");
        int width = 0;
        boolean desc = false, nullable = false, past = false;
        for (int i = 2; i < p.length; i++) {
            if (p[i].equals("DESC")) desc = true;
            else if (p[i].equals("PAST")) past = true;
            else if (p[i].equals("NULL")) nullable = true;
            else width = Integer.parseInt(p[i]);
        }
        return new Col(p[0], p[1], width, desc, nullable, past);
    }

    static Table table(String name, int buckets, String... cols) {
        List<Col> list = new ArrayList<>();
        for (String c : cols) list.add(col(c));
        return new Table(name, buckets, list);
    }

    static final Table[] TABLES = {
        table("INTS", 0, "A:TINYINT", "B:SMALLINT", "C:INTEGER", "D:BIGINT"),
        table("INTS_DESC", 0, "A:TINYINT:DESC", "B:SMALLINT:DESC", "C:INTEGER:DESC", "D:BIGINT:DESC"),
        table("UINTS", 0, "A:UNSIGNED_TINYINT", "B:UNSIGNED_SMALLINT:DESC", "C:UNSIGNED_INT", "D:UNSIGNED_LONG:DESC"),
        table("UINTS_FLIP", 0, "A:UNSIGNED_TINYINT:DESC", "B:UNSIGNED_SMALLINT", "C:UNSIGNED_INT:DESC", "D:UNSIGNED_LONG"),
        table("FLOATS", 0, "A:FLOAT", "B:DOUBLE", "C:FLOAT:DESC", "D:DOUBLE:DESC"),
        table("BOOLS", 0, "A:BOOLEAN", "B:BOOLEAN:DESC", "C:INTEGER"),
        table("STRS", 0, "A:VARCHAR", "B:VARCHAR:DESC", "C:VARCHAR:NULL", "D:VARCHAR:DESC:NULL"),
        table("STRS_LAST_DESC", 0, "A:VARCHAR:DESC", "B:VARCHAR:DESC"),
        table("NULL_COLUMNS", 0, "A:VARCHAR:NULL", "B:VARCHAR:DESC:NULL", "C:INTEGER", "D:VARCHAR:NULL", "E:VARCHAR:DESC:NULL", "F:VARCHAR:NULL"),
        table("CHARS", 0, "A:CHAR:4", "B:CHAR:3:DESC", "C:VARCHAR"),
        table("BINS", 0, "A:BINARY:4", "B:BINARY:2:DESC", "C:VARBINARY"),
        table("SALTED", 8, "A:VARCHAR", "B:BIGINT:DESC", "C:VARCHAR:DESC:NULL"),
        table("SALTED_WIDE", 256, "A:INTEGER", "B:VARCHAR:NULL"),
        table("TIMES", 0, "A:DATE", "B:TIMESTAMP:DESC", "C:TIME", "D:TIMESTAMP", "E:DATE:DESC"),
        table("DECIMALS", 0, "A:DECIMAL", "B:DECIMAL:DESC", "C:DECIMAL:NULL", "D:DECIMAL:DESC:NULL"),
        table("MIXED", 3, "A:VARCHAR:DESC", "B:INTEGER", "C:VARCHAR:DESC:NULL", "D:DOUBLE", "E:BOOLEAN:DESC"),
        // Last, so that the tables above draw the same random values as before it came.
        table("TIMES_BEFORE_1970", 0, "A:DATE:PAST", "B:TIMESTAMP:DESC:PAST", "C:TIMESTAMP:PAST", "D:DATE:DESC:PAST"),
    };

    static final int RANDOM_ROWS = 1000;
    static final Random RNG = new Random(20261127L);
    static final String[] PIECES = {"a", "b", "z", "A", "0", " ", "-", "~", "\u007f", "é", "ß", "日本", "😀", "\u0001", "\uffff"};

    public static void main(String[] args) throws Exception {
        try (Connection conn = DriverManager.getConnection("jdbc:phoenix:none")) {
            conn.setAutoCommit(false);
            StringBuilder out = new StringBuilder();
            for (Table t : TABLES) {
                String ddl = t.ddl();
                conn.createStatement().execute(ddl);
                out.append("#TABLE\t").append(t.name).append('\t').append(ddl.replace("\n", "\\n")).append('\n');
                StringBuilder marks = new StringBuilder();
                for (int i = 0; i < t.cols.size(); i++) marks.append(i == 0 ? "?" : ", ?");
                String upsert = "UPSERT INTO " + t.name + " VALUES (" + marks + ")";
                int edges = 0;
                for (Col c : t.cols) edges = Math.max(edges, edgeCount(c));
                boolean cellsShown = false;
                for (int row = 0; row < edges + RANDOM_ROWS; row++) {
                    Object[] values = new Object[t.cols.size()];
                    for (int i = 0; i < values.length; i++) {
                        Col c = t.cols.get(i);
                        values[i] = row < edges ? edge(c, row, i) : random(c);
                    }
                    if (allNull(values)) continue;
                    String refused = null;
                    try (PreparedStatement ps = conn.prepareStatement(upsert)) {
                        for (int i = 0; i < values.length; i++) bind(ps, i + 1, t.cols.get(i), values[i]);
                        ps.executeUpdate();
                    } catch (Exception e) {
                        refused = e.getClass().getSimpleName();
                    }
                    if (refused != null) {
                        conn.rollback();
                        out.append(t.name);
                        for (int i = 0; i < values.length; i++) out.append('\t').append(show(t.cols.get(i), values[i]));
                        out.append("\t!").append(refused).append('\n');
                        continue;
                    }
                    Iterator<Pair<byte[], List<Cell>>> it = PhoenixRuntime.getUncommittedDataIterator(conn);
                    List<Cell> cells = it.next().getSecond();
                    Cell cell = cells.get(0);
                    if (!cellsShown) {
                        cellsShown = true;
                        // The cells of a row with only key columns: Phoenix's empty cell.
                        out.append("#CELLS\t").append(t.name);
                        for (Cell c : cells) {
                            out.append('\t').append(hex(java.util.Arrays.copyOfRange(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyOffset() + c.getFamilyLength())))
                                .append(':').append(hex(java.util.Arrays.copyOfRange(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierOffset() + c.getQualifierLength())))
                                .append('=').append(hex(java.util.Arrays.copyOfRange(c.getValueArray(), c.getValueOffset(), c.getValueOffset() + c.getValueLength())));
                        }
                        out.append('\n');
                    }
                    byte[] key = java.util.Arrays.copyOfRange(cell.getRowArray(), cell.getRowOffset(), cell.getRowOffset() + cell.getRowLength());
                    conn.rollback();
                    out.append(t.name);
                    for (int i = 0; i < values.length; i++) out.append('\t').append(show(t.cols.get(i), values[i]));
                    out.append('\t').append(hex(key)).append('\n');
                }
            }
            // UNSIGNED_DOUBLE, which rowkey maps no Rust type to: Phoenix takes -0.0 there (it is
            // not below 0) and stores its raw bits, which sort after every positive value.
            conn.createStatement().execute("CREATE TABLE QUIRK_UNSIGNED (A UNSIGNED_DOUBLE NOT NULL PRIMARY KEY)");
            for (double d : new double[] {0.0, 1.0, Double.MAX_VALUE, -0.0}) {
                try (PreparedStatement ps = conn.prepareStatement("UPSERT INTO QUIRK_UNSIGNED VALUES (?)")) {
                    ps.setDouble(1, d);
                    ps.executeUpdate();
                }
                Cell cell = PhoenixRuntime.getUncommittedDataIterator(conn).next().getSecond().get(0);
                byte[] key = java.util.Arrays.copyOfRange(cell.getRowArray(), cell.getRowOffset(), cell.getRowOffset() + cell.getRowLength());
                conn.rollback();
                out.append("#QUIRK\tUNSIGNED_DOUBLE\t").append(String.format("%016x", Double.doubleToRawLongBits(d))).append('\t').append(hex(key)).append('\n');
            }
            // DECIMAL beyond rust_decimal's 28 digits: Phoenix holds 38.
            conn.createStatement().execute("CREATE TABLE QUIRK_DECIMAL (A DECIMAL NOT NULL PRIMARY KEY)");
            for (String d : new String[] {"12345678901234567890123456789012345678", "-0.12345678901234567890123456789012345678", "79228162514264337593543950336", "1234567890123456789012345678"}) {
                try (PreparedStatement ps = conn.prepareStatement("UPSERT INTO QUIRK_DECIMAL VALUES (?)")) {
                    ps.setBigDecimal(1, new java.math.BigDecimal(d));
                    ps.executeUpdate();
                }
                Cell cell = PhoenixRuntime.getUncommittedDataIterator(conn).next().getSecond().get(0);
                byte[] key = java.util.Arrays.copyOfRange(cell.getRowArray(), cell.getRowOffset(), cell.getRowOffset() + cell.getRowLength());
                conn.rollback();
                out.append("#QUIRK\tDECIMAL\t").append(d).append('\t').append(hex(key)).append('\n');
            }
            System.out.print(out);
        }
    }

    static boolean allNull(Object[] values) {
        for (Object v : values) if (v != null) return false;
        return true;
    }

    static int edgeCount(Col c) {
        return switch (c.type) {
            case "FLOAT", "DOUBLE" -> 12;
            case "BOOLEAN" -> 2;
            case "DATE", "TIME", "TIMESTAMP" -> 6;
            case "DECIMAL" -> 16;
            default -> c.nullable ? 6 : 5;
        };
    }

    /// The edge value of column `col` in edge row `row`: the column's edges in turn, each column
    /// a step ahead of the one before, so that edges meet in many combinations. The last three
    /// rows of a FLOAT or DOUBLE column are NaN, +infinity and -infinity in every such column of
    /// the row, which Phoenix refuses; the other rows hold none of them.
    static Object edge(Col c, int row, int col) {
        boolean floating = c.type.equals("FLOAT") || c.type.equals("DOUBLE");
        if (floating && row >= 9) {
            return switch (c.type) {
                case "FLOAT" -> new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}[row - 9];
                default -> new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}[row - 9];
            };
        }
        int i = (row + col) % (floating ? 9 : edgeCount(c));
        if (c.nullable && i == 5) return null;
        return switch (c.type) {
            case "TINYINT" -> new byte[] {Byte.MIN_VALUE, Byte.MAX_VALUE, 0, -1, 1}[i % 5];
            case "SMALLINT" -> new short[] {Short.MIN_VALUE, Short.MAX_VALUE, 0, -1, 1}[i % 5];
            case "INTEGER" -> new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1}[i % 5];
            case "BIGINT" -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1}[i % 5];
            case "UNSIGNED_TINYINT" -> new byte[] {0, Byte.MAX_VALUE, 1, 0x40, 2}[i % 5];
            case "UNSIGNED_SMALLINT" -> new short[] {0, Short.MAX_VALUE, 1, 0x4000, 2}[i % 5];
            case "UNSIGNED_INT" -> new int[] {0, Integer.MAX_VALUE, 1, 0x40000000, 2}[i % 5];
            case "UNSIGNED_LONG" -> new long[] {0, Long.MAX_VALUE, 1, 0x4000000000000000L, 2}[i % 5];
            case "FLOAT" -> new float[] {0f, -0f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE,
                -Float.MIN_VALUE, 1f, -1f, Float.MIN_NORMAL}[i];
            case "DOUBLE" -> new double[] {0d, -0d, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE,
                -Double.MIN_VALUE, 1d, -1d, Double.MIN_NORMAL}[i];
            case "BOOLEAN" -> i == 0;
            // rust_decimal's range: at most 28 digits (a mantissa below 2^96) and 28 places.
            case "DECIMAL" -> new java.math.BigDecimal[] {java.math.BigDecimal.ZERO, java.math.BigDecimal.ONE,
                new java.math.BigDecimal("-1"), new java.math.BigDecimal("12.5"), new java.math.BigDecimal("-12.5"),
                new java.math.BigDecimal("3.14159"), new java.math.BigDecimal("1200"), new java.math.BigDecimal("0.01"), new java.math.BigDecimal("-0.001"),
                new java.math.BigDecimal("79228162514264337593543950335"), new java.math.BigDecimal("-79228162514264337593543950335"),
                new java.math.BigDecimal("0.0000000000000000000000000001"), new java.math.BigDecimal("-0.0000000000000000000000000001"),
                new java.math.BigDecimal("1.5"), new java.math.BigDecimal("99.99"), new java.math.BigDecimal("-100")}[i];
            // Times before 1970, as far back as a long of nanoseconds goes (1677-09-21).
            case "DATE" -> c.past ? new long[] {-1_000_000L, -1_000_000_000L, -86_400_000_000_000L,
                -2_208_988_800_000_000_000L, -9_223_372_036_854_000_000L, -14_182_940_000_000_000L}[i]
            // Times as nanoseconds since the epoch; DATE and TIME in whole milliseconds.
                : new long[] {0, 1_000_000L, 86_400_000_000_000L, 9_223_372_036_854_000_000L, 1_700_000_000_123_000_000L, 999_000_000L}[i];
            case "TIME" -> new long[] {0, 1_000_000L, 86_399_999_000_000L, 43_200_000_000_000L, 3_600_000_000_000L, 999_000_000L}[i];
            case "TIMESTAMP" -> c.past ? new long[] {-1L, -999_999L, -1_000_000L, -1_000_001L,
                -2_208_988_799_876_543_211L, Long.MIN_VALUE}[i]
                : new long[] {0, 1L, 999_999L, 1_000_000L, 1_700_000_000_123_456_789L, 9_223_372_036_854_775_807L}[i];
            case "VARCHAR" -> new String[] {"a", "\u007f", "😀", "x".repeat(300), "日本語の文字列"}[i % 5];
            case "CHAR" -> new String[] {"a", "~".repeat(c.width), "A b", "0", "z"}[i % 5].substring(0, Math.min(c.width, new String[] {"a", "~".repeat(c.width), "A b", "0", "z"}[i % 5].length()));
            case "BINARY" -> fill(c.width, new int[] {0x00, 0xff, 0x01, 0x80, 0x7f}[i % 5]);
            case "VARBINARY" -> new byte[][] {{0}, {(byte) 0xff}, {0, 0}, fill(100, 0x55), {1, 0, (byte) 0xff}}[i % 5];
            default -> throw new IllegalArgumentException(c.type);
        };
    }

    static byte[] fill(int n, int b) {
        byte[] out = new byte[n];
        java.util.Arrays.fill(out, (byte) b);
        return out;
    }

    static Object random(Col c) {
        if (c.nullable && RNG.nextInt(4) == 0) return null;
        return switch (c.type) {
            case "TINYINT" -> (byte) RNG.nextInt();
            case "SMALLINT" -> (short) RNG.nextInt();
            case "INTEGER" -> RNG.nextInt(3) == 0 ? RNG.nextInt(200) - 100 : RNG.nextInt();
            case "BIGINT" -> RNG.nextInt(3) == 0 ? (long) RNG.nextInt(200) - 100 : RNG.nextLong();
            case "UNSIGNED_TINYINT" -> (byte) RNG.nextInt(128);
            case "UNSIGNED_SMALLINT" -> (short) RNG.nextInt(32768);
            case "UNSIGNED_INT" -> RNG.nextInt() & Integer.MAX_VALUE;
            case "UNSIGNED_LONG" -> RNG.nextLong() & Long.MAX_VALUE;
            case "FLOAT" -> RNG.nextBoolean() ? Float.intBitsToFloat(RNG.nextInt()) : (RNG.nextFloat() - 0.5f) * 1000f;
            case "DOUBLE" -> RNG.nextBoolean() ? Double.longBitsToDouble(RNG.nextLong()) : (RNG.nextDouble() - 0.5) * 1e6;
            case "BOOLEAN" -> RNG.nextBoolean();
            case "DATE" -> (RNG.nextLong() & ((1L << 41) - 1)) * 1_000_000L * (c.past ? -1 : 1);
            case "DECIMAL" -> randomDecimal();
            case "TIME" -> (long) RNG.nextInt(86_400_000) * 1_000_000L;
            case "TIMESTAMP" -> c.past ? RNG.nextLong() | Long.MIN_VALUE : RNG.nextLong() & Long.MAX_VALUE;
            case "VARCHAR" -> randomString(1 + RNG.nextInt(12));
            case "CHAR" -> randomAscii(1 + RNG.nextInt(c.width));
            case "BINARY" -> randomBytes(c.width);
            case "VARBINARY" -> randomBytes(1 + RNG.nextInt(16));
            default -> throw new IllegalArgumentException(c.type);
        };
    }

    static java.math.BigDecimal randomDecimal() {
        int digits = 1 + RNG.nextInt(28);
        StringBuilder s = new StringBuilder(RNG.nextBoolean() ? "-" : "");
        for (int i = 0; i < digits; i++) s.append((char) ('0' + RNG.nextInt(10)));
        return new java.math.BigDecimal(new java.math.BigInteger(s.toString()), RNG.nextInt(29));
    }

    static String randomString(int pieces) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < pieces; i++) s.append(PIECES[RNG.nextInt(PIECES.length)]);
        return s.toString();
    }

    static String randomAscii(int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) s.append((char) (0x21 + RNG.nextInt(0x5e)));
        return s.toString();
    }

    static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RNG.nextBytes(b);
        return b;
    }

    static void bind(PreparedStatement ps, int i, Col c, Object v) throws Exception {
        if (v == null) {
            ps.setNull(i, switch (c.type) {
                case "VARBINARY" -> Types.VARBINARY;
                case "DECIMAL" -> Types.DECIMAL;
                default -> Types.VARCHAR;
            });
            return;
        }
        switch (c.type) {
            case "TINYINT", "UNSIGNED_TINYINT" -> ps.setByte(i, (Byte) v);
            case "SMALLINT", "UNSIGNED_SMALLINT" -> ps.setShort(i, (Short) v);
            case "INTEGER", "UNSIGNED_INT" -> ps.setInt(i, (Integer) v);
            case "BIGINT", "UNSIGNED_LONG" -> ps.setLong(i, (Long) v);
            case "FLOAT" -> ps.setFloat(i, (Float) v);
            case "DOUBLE" -> ps.setDouble(i, (Double) v);
            case "BOOLEAN" -> ps.setBoolean(i, (Boolean) v);
            case "VARCHAR", "CHAR" -> ps.setString(i, (String) v);
            case "BINARY", "VARBINARY" -> ps.setBytes(i, (byte[]) v);
            case "DECIMAL" -> ps.setBigDecimal(i, (java.math.BigDecimal) v);
            case "DATE" -> ps.setDate(i, new java.sql.Date((Long) v / 1_000_000L));
            case "TIME" -> ps.setTime(i, new java.sql.Time((Long) v / 1_000_000L));
            case "TIMESTAMP" -> {
                // The second rounded down (towards the past), then the nanoseconds after it.
                long nanos = (Long) v;
                java.sql.Timestamp t = new java.sql.Timestamp(Math.floorDiv(nanos, 1_000_000_000L) * 1_000L);
                t.setNanos((int) Math.floorMod(nanos, 1_000_000_000L));
                ps.setTimestamp(i, t);
            }
            default -> throw new IllegalArgumentException(c.type);
        }
    }

    static String show(Col c, Object v) {
        if (v == null) return "~";
        return switch (c.type) {
            case "FLOAT" -> String.format("%08x", Float.floatToRawIntBits((Float) v));
            case "DOUBLE" -> String.format("%016x", Double.doubleToRawLongBits((Double) v));
            case "VARCHAR", "CHAR" -> hex(((String) v).getBytes(StandardCharsets.UTF_8));
            case "BINARY", "VARBINARY" -> hex((byte[]) v);
            case "DECIMAL" -> ((java.math.BigDecimal) v).stripTrailingZeros().toPlainString();
            default -> v.toString();
        };
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x & 0xff));
        return s.toString();
    }
}
