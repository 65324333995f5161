package org.phalanx.controller.config;

import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an already validated configuration file into {@link XmlElement}s with StAX, because
 * StAX reports where each element is (DOM does not). Text content is ignored: our formats
 * carry everything in attributes.
 * <p>
 * StAX places an element at the end of its start tag and says nothing of attributes, so each
 * attribute's own position is found in the file's text: a start tag cannot contain '&lt;', so
 * the tag begins at the last '&lt;' before that end, and its attributes are read from there.
 */
final class XmlTreeReader {
    private static final XMLInputFactory FACTORY = secureFactory();

    private XmlTreeReader() {
    }

    private static XMLInputFactory secureFactory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        return f;
    }

    /** @param shownAs the file name used in locations, as the user knows it */
    static XmlElement read(Path file, String shownAs) throws ConfigException {
        try {
            byte[] bytes = Files.readAllBytes(file);
            XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(bytes));
            try {
                return readRoot(r, shownAs, new SourceText(new String(bytes, StandardCharsets.UTF_8)));
            } finally {
                r.close();
            }
        } catch (XMLStreamException e) {
            Location l = e.getLocation();
            String reason = "not readable XML: " + e.getMessage();
            throw new ConfigException(l == null ? shownAs + ": " + reason
                    : new ConfigLocation(shownAs, l.getLineNumber(), l.getColumnNumber()).problem(reason));
        } catch (IOException e) {
            throw new ConfigException(shownAs + ": cannot read: " + e);
        }
    }

    private static XmlElement readRoot(XMLStreamReader r, String shownAs, SourceText text) throws XMLStreamException {
        Deque<Builder> open = new ArrayDeque<>();
        XmlElement root = null;
        while (r.hasNext()) {
            int event = r.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                Map<String, String> attributes = new LinkedHashMap<>();
                for (int i = 0; i < r.getAttributeCount(); i++) {
                    attributes.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
                }
                Location l = r.getLocation();
                open.push(new Builder(r.getLocalName(), attributes,
                        new ConfigLocation(shownAs, l.getLineNumber(), l.getColumnNumber()),
                        text.attributePositions(shownAs, l.getLineNumber(), l.getColumnNumber())));
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                XmlElement done = open.pop().build();
                if (open.isEmpty()) {
                    root = done;
                } else {
                    open.peek().children.add(done);
                }
            }
        }
        return root;
    }

    private static final class Builder {
        final String name;
        final Map<String, String> attributes;
        final ConfigLocation location;
        final Map<String, ConfigLocation> attributeLocations;
        final List<XmlElement> children = new ArrayList<>();

        Builder(String name, Map<String, String> attributes, ConfigLocation location,
                Map<String, ConfigLocation> attributeLocations) {
            this.name = name;
            this.attributes = attributes;
            this.location = location;
            this.attributeLocations = attributeLocations;
        }

        XmlElement build() {
            return new XmlElement(name, Map.copyOf(attributes), location, Map.copyOf(attributeLocations),
                    List.copyOf(children));
        }
    }

    /**
     * The file as text, to find where each attribute is written. Decoded as UTF-8, which counts
     * the same characters per line as any single-byte encoding; when the text does not look as
     * expected (another encoding), attributes simply have no position of their own and messages
     * fall back to the element's.
     */
    private static final class SourceText {
        private final String text;
        /** Offset in text where each line starts; lines end at \n, \r\n or \r as XML counts them. */
        private final List<Integer> lineStarts = new ArrayList<>();

        SourceText(String text) {
            this.text = text;
            lineStarts.add(0);
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
                    lineStarts.add(i + 1);
                }
            }
        }

        /**
         * @param line   where StAX says the start tag ends (1-based)
         * @param column the column just after its '&gt;' (1-based)
         * @return each attribute's local name to where its name is written; empty if not found
         */
        Map<String, ConfigLocation> attributePositions(String shownAs, int line, int column) {
            if (line < 1 || line > lineStarts.size() || column < 1) {
                return Map.of();
            }
            int end = Math.min(lineStarts.get(line - 1) + column - 1, text.length());
            int start = text.lastIndexOf('<', end - 1);
            if (start < 0) {
                return Map.of();
            }
            Map<String, ConfigLocation> positions = new LinkedHashMap<>();
            int i = skipName(start + 1, end);
            while (true) {
                i = skipSpace(i, end);
                if (i >= end || text.charAt(i) == '/' || text.charAt(i) == '>') {
                    return positions;
                }
                int nameStart = i;
                i = skipName(i, end);
                if (i == nameStart) {
                    return positions;
                }
                String qualified = text.substring(nameStart, i);
                i = skipSpace(i, end);
                if (i >= end || text.charAt(i) != '=') {
                    return positions;
                }
                i = skipSpace(i + 1, end);
                if (i >= end || (text.charAt(i) != '"' && text.charAt(i) != '\'')) {
                    return positions;
                }
                int close = text.indexOf(text.charAt(i), i + 1);
                if (close < 0 || close >= end) {
                    return positions;
                }
                i = close + 1;
                positions.putIfAbsent(qualified.substring(qualified.indexOf(':') + 1), at(shownAs, nameStart));
            }
        }

        private int skipName(int i, int end) {
            while (i < end) {
                char c = text.charAt(i);
                if (Character.isWhitespace(c) || c == '=' || c == '/' || c == '>') {
                    break;
                }
                i++;
            }
            return i;
        }

        private int skipSpace(int i, int end) {
            while (i < end && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            return i;
        }

        private ConfigLocation at(String shownAs, int offset) {
            int index = Collections.binarySearch(lineStarts, offset);
            int line = index >= 0 ? index : -index - 2;
            return new ConfigLocation(shownAs, line + 1, offset - lineStarts.get(line) + 1);
        }
    }
}
