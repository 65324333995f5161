package org.phalanx.controller.config;

import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an already validated configuration file into {@link XmlElement}s with StAX, because
 * StAX reports where each element is (DOM does not). Text content is ignored: our formats
 * carry everything in attributes.
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
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader r = FACTORY.createXMLStreamReader(in);
            try {
                return readRoot(r, shownAs);
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

    private static XmlElement readRoot(XMLStreamReader r, String shownAs) throws XMLStreamException {
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
                        new ConfigLocation(shownAs, l.getLineNumber(), l.getColumnNumber())));
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
        final List<XmlElement> children = new ArrayList<>();

        Builder(String name, Map<String, String> attributes, ConfigLocation location) {
            this.name = name;
            this.attributes = attributes;
            this.location = location;
        }

        XmlElement build() {
            return new XmlElement(name, Map.copyOf(attributes), location, List.copyOf(children));
        }
    }
}
