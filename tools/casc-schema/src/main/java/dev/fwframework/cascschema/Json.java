package dev.fwframework.cascschema;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A small deterministic JSON writer: object keys sorted, two-space indentation, a final newline. */
final class Json {
    private Json() {}

    static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, "");
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, String indent) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            string(sb, s);
        } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
            sb.append(v);
        } else if (v instanceof Map<?, ?> m) {
            Map<String, Object> sorted = new TreeMap<>();
            m.forEach((k, x) -> sorted.put((String) k, x));
            if (sorted.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append("{\n");
            String in = indent + "  ";
            int i = 0;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                sb.append(in);
                string(sb, e.getKey());
                sb.append(": ");
                write(sb, e.getValue(), in);
                sb.append(++i < sorted.size() ? ",\n" : "\n");
            }
            sb.append(indent).append('}');
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                sb.append("[]");
                return;
            }
            boolean scalars = l.stream().allMatch(x -> x instanceof String || x instanceof Number || x instanceof Boolean);
            if (scalars) {
                sb.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    write(sb, l.get(i), indent);
                }
                sb.append(']');
                return;
            }
            sb.append("[\n");
            String in = indent + "  ";
            for (int i = 0; i < l.size(); i++) {
                sb.append(in);
                write(sb, l.get(i), in);
                sb.append(i + 1 < l.size() ? ",\n" : "\n");
            }
            sb.append(indent).append(']');
        } else {
            throw new IllegalArgumentException("not JSON: " + v.getClass());
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
