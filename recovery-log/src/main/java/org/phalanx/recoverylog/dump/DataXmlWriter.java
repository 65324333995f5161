package org.phalanx.recoverylog.dump;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes rows in DdlUtils' data XML format, streaming: {@code <data>}, then one element per row
 * named after its table, each non-null column an attribute ({@code <item id="1" name="x"/>}); a
 * NULL column is absent. A value that would not survive as an attribute — longer than 255
 * characters (DdlUtils' own limit), or holding tabs or line breaks, which XML parsers normalise
 * to spaces in attributes — becomes a sub-element; one that would not survive as element text
 * either (carriage returns, control characters) is written base64 of its UTF-8 bytes with
 * {@code base64="true"}, as DdlUtils 1.0 does. DdlUtils' own DataWriter is not used because it
 * writes short values with line breaks as attributes (they come back as spaces) and encodes base64
 * in the platform charset.
 */
final class DataXmlWriter implements AutoCloseable {
    private static final int MAX_ATTRIBUTE_LENGTH = 255;
    private final XMLStreamWriter xml;

    DataXmlWriter(OutputStream out) throws XMLStreamException {
        this.xml = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(out, "UTF-8");
        xml.writeStartDocument("UTF-8", "1.0");
        xml.writeCharacters("\n");
        xml.writeStartElement("data");
        xml.writeCharacters("\n");
    }

    /** One row: {@code values[i]} is the text of {@code columns[i]}, null for NULL. */
    void row(String table, String[] columns, String[] values) throws XMLStreamException {
        boolean nested = false;
        for (String value : values) {
            if (value != null && !attributeSafe(value)) {
                nested = true;
                break;
            }
        }
        xml.writeCharacters("  ");
        if (nested) {
            xml.writeStartElement(table);
        } else {
            xml.writeEmptyElement(table);
        }
        for (int i = 0; i < columns.length; i++) {
            if (values[i] != null && attributeSafe(values[i])) {
                xml.writeAttribute(columns[i], values[i]);
            }
        }
        if (nested) {
            for (int i = 0; i < columns.length; i++) {
                String value = values[i];
                if (value == null || attributeSafe(value)) {
                    continue;
                }
                xml.writeCharacters("\n    ");
                xml.writeStartElement(columns[i]);
                if (textSafe(value)) {
                    xml.writeCharacters(value);
                } else {
                    xml.writeAttribute("base64", "true");
                    xml.writeCharacters(Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
                }
                xml.writeEndElement();
            }
            xml.writeCharacters("\n  ");
            xml.writeEndElement();
        }
        xml.writeCharacters("\n");
    }

    static boolean attributeSafe(String value) {
        if (value.length() > MAX_ATTRIBUTE_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || !xmlChar(value, i)) {
                return false;
            }
        }
        return true;
    }

    static boolean textSafe(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\n' && c != '\t') || !xmlChar(value, i)) {
                return false;
            }
        }
        return true;
    }

    /** XML 1.0 allows no U+FFFE/U+FFFF and no unpaired surrogates. */
    private static boolean xmlChar(String s, int i) {
        char c = s.charAt(i);
        if (c == 0xFFFE || c == 0xFFFF) {
            return false;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
        }
        return true;
    }

    @Override
    public void close() throws XMLStreamException {
        xml.writeEndElement();
        xml.writeCharacters("\n");
        xml.writeEndDocument();
        xml.flush();
        xml.close(); // does not close the underlying stream
    }
}
