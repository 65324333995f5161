package org.phalanx.recoverylog.dump;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** Streams the rows of a data XML written by {@link DataXmlWriter} (or by DdlUtils 1.0). */
final class DataXmlReader implements AutoCloseable {

    /** Where rows go; {@link #columns} says which column names a table has, in the order of the row arrays. */
    interface Sink {
        String[] columns(String table) throws DumpException;

        void row(String table, String[] values) throws Exception;
    }

    private final XMLStreamReader xml;
    private final Map<String, Map<String, Integer>> indexes = new HashMap<>();

    DataXmlReader(InputStream in) throws XMLStreamException {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        this.xml = factory.createXMLStreamReader(in, "UTF-8");
    }

    /** Reads every row into {@code sink}; returns how many. */
    long readAll(Sink sink) throws Exception {
        while (xml.hasNext() && xml.next() != XMLStreamConstants.START_ELEMENT) {
            // prolog
        }
        if (!xml.isStartElement() || !"data".equals(xml.getLocalName())) {
            throw new DumpException("the data XML does not start with <data>");
        }
        long rows = 0;
        while (true) {
            int event = xml.nextTag();
            if (event == XMLStreamConstants.END_ELEMENT) {
                return rows; // </data>
            }
            String table = xml.getLocalName();
            Map<String, Integer> index = index(table, sink);
            String[] values = new String[index.size()];
            for (int a = 0; a < xml.getAttributeCount(); a++) {
                values[column(index, table, xml.getAttributeLocalName(a))] = xml.getAttributeValue(a);
            }
            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                String column = xml.getLocalName();
                boolean base64 = "true".equals(xml.getAttributeValue(null, "base64"));
                String text = xml.getElementText(); // leaves us on the column's end tag
                values[column(index, table, column)] = base64
                        ? new String(Base64.getMimeDecoder().decode(text), StandardCharsets.UTF_8) : text;
            }
            sink.row(table, values);
            rows++;
        }
    }

    private Map<String, Integer> index(String table, Sink sink) throws DumpException {
        Map<String, Integer> index = indexes.get(table);
        if (index == null) {
            String[] columns = sink.columns(table);
            index = new HashMap<>();
            for (int i = 0; i < columns.length; i++) {
                index.put(columns[i], i);
            }
            indexes.put(table, index);
        }
        return index;
    }

    private int column(Map<String, Integer> index, String table, String column) throws DumpException {
        Integer i = index.get(column);
        if (i == null) {
            throw new DumpException("the data XML names column " + column + " of table " + table
                    + ", which the dump's schema does not have (line " + xml.getLocation().getLineNumber() + ")");
        }
        return i;
    }

    @Override
    public void close() throws XMLStreamException {
        xml.close();
    }
}
