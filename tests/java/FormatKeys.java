import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The text a Java key builder writes for a time: args are a DateTimeFormatter pattern, then
 * instants as "seconds.nanoseconds" since the Unix epoch (UTC). One formatted line per instant.
 */
public class FormatKeys {
    public static void main(String[] args) {
        DateTimeFormatter format = DateTimeFormatter.ofPattern(args[0]);
        for (int i = 1; i < args.length; i++) {
            String[] parts = args[i].split("\\.");
            LocalDateTime t = LocalDateTime.ofEpochSecond(
                    Long.parseLong(parts[0]), Integer.parseInt(parts[1]), ZoneOffset.UTC);
            System.out.println(t.format(format));
        }
    }
}
