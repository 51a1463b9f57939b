package rowkey.servers;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.HexFormat;
import java.util.Properties;

/**
 * SQL through Apache Phoenix's JDBC driver on the mini-cluster, for the control endpoint's {@code
 * POST /phoenix}: Phoenix as an application uses it, its server side (coprocessors) running in
 * the cluster's region servers. One connection, opened on the first call (which creates
 * Phoenix's SYSTEM tables), its calls one at a time.
 *
 * <p>The body is lines of one of three kinds, tab-separated:
 *
 * <ul>
 *   <li>{@code exec<TAB>SQL}: commits what the lines before wrote, and runs the statement (a
 *       {@code ;} at its end, as sqlline wants it, is left out); a
 *       query answers its rows, a line each, the columns tab-separated;
 *   <li>{@code prepare<TAB>SQL}: prepares a statement with {@code ?} parameters for the lines
 *       after it;
 *   <li>{@code row<TAB>V1<TAB>V2...}: runs the prepared statement with these values (a query
 *       answers its rows, as {@code exec} does).
 * </ul>
 *
 * Values, given and answered, are typed text: {@code s:TEXT} (a string, with {@code \t}, {@code
 * \n} and {@code \\} escaped), {@code l:}, {@code i:}, {@code h:}, {@code y:} (BIGINT, INTEGER,
 * SMALLINT, TINYINT), {@code d:} (DOUBLE, as Java and Rust print it), {@code b:true}, {@code
 * t:SECONDS:NANOS} (a TIMESTAMP: seconds since the epoch, and the nanoseconds of its second),
 * {@code x:HEX} (bytes) and {@code n} (NULL). Everything is committed at the end; the answer
 * ends with {@code ok ROWS} (the rows the statements changed).
 */
final class PhoenixSql {
  private final String url;
  private Connection connection;

  PhoenixSql(int zkPort) {
    this.url = "jdbc:phoenix:127.0.0.1:" + zkPort;
  }

  /**
   * The statement {@code sql} as Phoenix's JDBC driver takes it: without the {@code ;} that ends a
   * statement in sqlline and psql.py (and in what {@code rowkey phoenix-ddl} prints), which the
   * driver refuses ("Syntax error. Unexpected input. Expecting "EOF", got ";"").
   */
  static String statement(String sql) {
    String s = sql.strip();
    return s.endsWith(";") ? s.substring(0, s.length() - 1) : s;
  }

  synchronized String run(String body) throws SQLException {
    if (connection == null) {
      connection = DriverManager.getConnection(url, new Properties());
      connection.setAutoCommit(false);
    }
    StringBuilder out = new StringBuilder();
    PreparedStatement prepared = null;
    long changed = 0;
    try {
      for (String line : body.split("\n")) {
        if (line.isEmpty()) {
          continue;
        }
        String[] parts = line.split("\t", -1);
        switch (parts[0]) {
          case "exec" -> {
            // A query reads what is committed: the rows written before it, too.
            connection.commit();
            try (Statement s = connection.createStatement()) {
              if (s.execute(statement(parts[1]))) {
                answer(s.getResultSet(), out);
              } else {
                changed += Math.max(0, s.getUpdateCount());
              }
            }
          }
          case "prepare" -> {
            connection.commit();
            if (prepared != null) {
              prepared.close();
            }
            prepared = connection.prepareStatement(statement(parts[1]));
          }
          case "row" -> {
            if (prepared == null) {
              throw new IllegalArgumentException("a row before any prepare line");
            }
            for (int i = 1; i < parts.length; i++) {
              bind(prepared, i, parts[i]);
            }
            if (prepared.execute()) {
              answer(prepared.getResultSet(), out);
            } else {
              changed += Math.max(0, prepared.getUpdateCount());
            }
          }
          default -> throw new IllegalArgumentException("not exec, prepare or row: " + line);
        }
      }
      connection.commit();
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      if (prepared != null) {
        prepared.close();
      }
    }
    return out.append("ok ").append(changed).append('\n').toString();
  }

  private static void bind(PreparedStatement s, int i, String value) throws SQLException {
    if (value.equals("n")) {
      s.setNull(i, Types.NULL);
      return;
    }
    String v = value.substring(2);
    switch (value.charAt(0)) {
      case 's' -> s.setString(i, unescape(v));
      case 'l' -> s.setLong(i, Long.parseLong(v));
      case 'i' -> s.setInt(i, Integer.parseInt(v));
      case 'h' -> s.setShort(i, Short.parseShort(v));
      case 'y' -> s.setByte(i, Byte.parseByte(v));
      case 'd' -> s.setDouble(i, Double.parseDouble(v));
      case 'b' -> s.setBoolean(i, Boolean.parseBoolean(v));
      case 'x' -> s.setBytes(i, HexFormat.of().parseHex(v));
      case 't' -> {
        String[] sn = v.split(":");
        Timestamp t = new Timestamp(Long.parseLong(sn[0]) * 1000);
        t.setNanos(Integer.parseInt(sn[1]));
        s.setTimestamp(i, t);
      }
      default -> throw new IllegalArgumentException("not a typed value: " + value);
    }
  }

  private static void answer(ResultSet rs, StringBuilder out) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    int columns = meta.getColumnCount();
    while (rs.next()) {
      for (int i = 1; i <= columns; i++) {
        if (i > 1) {
          out.append('\t');
        }
        out.append(value(rs, i, meta.getColumnType(i)));
      }
      out.append('\n');
    }
    rs.close();
  }

  private static String value(ResultSet rs, int i, int type) throws SQLException {
    Object o = rs.getObject(i);
    if (o == null) {
      return "n";
    }
    return switch (type) {
      case Types.BIGINT -> "l:" + rs.getLong(i);
      case Types.INTEGER -> "i:" + rs.getInt(i);
      case Types.SMALLINT -> "h:" + rs.getShort(i);
      case Types.TINYINT -> "y:" + rs.getByte(i);
      case Types.DOUBLE, Types.FLOAT, Types.REAL -> "d:" + rs.getDouble(i);
      case Types.BOOLEAN -> "b:" + rs.getBoolean(i);
      case Types.BINARY, Types.VARBINARY -> "x:" + HexFormat.of().formatHex(rs.getBytes(i));
      case Types.TIMESTAMP, Types.DATE, Types.TIME -> {
        Timestamp t = rs.getTimestamp(i);
        yield "t:" + Math.floorDiv(t.getTime(), 1000) + ":" + t.getNanos();
      }
      default -> "s:" + escape(rs.getString(i));
    };
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char e = s.charAt(++i);
        out.append(e == 't' ? '\t' : e == 'n' ? '\n' : e);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
