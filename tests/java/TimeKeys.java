import java.nio.ByteBuffer;

/**
 * For each count of time units given on the command line, the key bytes HBase code writes for it:
 * Bytes.toBytes(ts) and Bytes.toBytes(Long.MAX_VALUE - ts) (ByteBuffer's big-endian putLong is the
 * same bytes), and the text forms String.format("%019d", ts) and ("%019d", Long.MAX_VALUE - ts).
 * One line per count: four fields separated by spaces, the bytes in lowercase hex.
 */
public class TimeKeys {
    public static void main(String[] args) {
        for (String arg : args) {
            long ts = Long.parseLong(arg);
            System.out.println(hex(ByteBuffer.allocate(8).putLong(ts).array()) + " "
                    + hex(ByteBuffer.allocate(8).putLong(Long.MAX_VALUE - ts).array()) + " "
                    + String.format("%019d", ts) + " "
                    + String.format("%019d", Long.MAX_VALUE - ts));
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b));
        }
        return out.toString();
    }
}
