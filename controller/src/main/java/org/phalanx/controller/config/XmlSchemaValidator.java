package org.phalanx.controller.config;

import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;

import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.sax.SAXSource;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Validates a configuration file against one of the XSDs shipped in this jar and reports every
 * error as {@code file:line:column: reason}. The parser is locked down: no DTDs, no external
 * entities, no schema fetched from anywhere but the jar.
 */
final class XmlSchemaValidator {
    /** Xerces prefixes messages with the rule they break ("cvc-complex-type.4: "); users need the sentence. */
    private static final Pattern RULE_PREFIX = Pattern.compile("^cvc-[\\w.-]+: ");
    /** Xerces names expected elements as {"urn:...":name}; the namespace is noise to the reader. */
    private static final Pattern NAMESPACE_QUALIFIER = Pattern.compile("\"urn:phalanx:[^\"]*\":");
    /** ...and wraps element names in braces: '{backend}' reads better as 'backend'. */
    private static final Pattern BRACED_NAMES = Pattern.compile("'\\{([^{}\"]*)}'");
    /** Rules about a value itself (enumeration, pattern, range, type); the attribute is named next. */
    private static final Pattern FACET_RULE =
            Pattern.compile("cvc-(enumeration|pattern|minInclusive|maxInclusive|minLength|maxLength|datatype)-valid");

    private final Schema schema;
    private final String namespace;
    private final String rootElement;

    private XmlSchemaValidator(Schema schema, String namespace, String rootElement) {
        this.schema = schema;
        this.namespace = namespace;
        this.rootElement = rootElement;
    }

    static final XmlSchemaValidator CONTROLLER =
            load("controller.xsd", "urn:phalanx:controller:1", "controller");
    static final XmlSchemaValidator VIRTUAL_DATABASE =
            load("virtual-database.xsd", "urn:phalanx:virtual-database:1", "virtualDatabase");

    private static XmlSchemaValidator load(String resource, String namespace, String rootElement) {
        URL xsd = XmlSchemaValidator.class.getResource(resource);
        if (xsd == null) {
            throw new IllegalStateException("schema " + resource + " missing from the controller jar");
        }
        try {
            SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            return new XmlSchemaValidator(f.newSchema(xsd), namespace, rootElement);
        } catch (SAXException e) {
            throw new IllegalStateException("schema " + resource + " does not load: " + e.getMessage(), e);
        }
    }

    /** @param shownAs the file name used in messages, as the user knows it */
    void validate(Path file, String shownAs) throws ConfigException {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(shownAs + ": no such file");
        }
        List<String> problems = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            Validator validator = schema.newValidator();
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            Collector collector = new Collector(shownAs, problems);
            validator.setErrorHandler(collector);
            InputSource source = new InputSource(in);
            source.setSystemId(file.toUri().toString());
            validator.validate(new SAXSource(lockedDownReader(), source));
            collector.flush();
        } catch (SAXParseException e) {
            // already collected by the handler; a fatal error ends parsing
        } catch (SAXException e) {
            problems.add(shownAs + ": " + e.getMessage());
        } catch (IOException e) {
            problems.add(shownAs + ": cannot read: " + e);
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    private static XMLReader lockedDownReader() throws SAXException {
        try {
            SAXParserFactory f = SAXParserFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            return f.newSAXParser().getXMLReader();
        } catch (ParserConfigurationException e) {
            throw new SAXException(e);
        }
    }

    /**
     * Collects errors instead of stopping at the first, so one run shows them all. Xerces reports
     * a bad attribute value twice at the same spot: first the rule it breaks (which holds the
     * allowed values), then the attribute it is on; the two become one problem.
     */
    private final class Collector implements ErrorHandler {
        private final String shownAs;
        private final List<String> problems;
        private SAXParseException pendingFacet;

        Collector(String shownAs, List<String> problems) {
            this.shownAs = shownAs;
            this.problems = problems;
        }

        @Override
        public void warning(SAXParseException e) {
            // warnings do not make a file invalid
        }

        @Override
        public void error(SAXParseException e) {
            String message = String.valueOf(e.getMessage());
            if (FACET_RULE.matcher(message).lookingAt()) {
                flush();
                pendingFacet = e;
            } else if (pendingFacet != null && message.startsWith("cvc-attribute.3")
                    && sameSpot(pendingFacet, e)) {
                add(e, withoutFinalStop(readable(message)) + ": " + readable(pendingFacet.getMessage()));
                pendingFacet = null;
            } else {
                flush();
                add(e, readable(message));
            }
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXParseException {
            flush();
            add(e, readable(String.valueOf(e.getMessage())));
            throw e;
        }

        /** Adds a held-back problem; called after each error and once validation ends. */
        void flush() {
            if (pendingFacet != null) {
                add(pendingFacet, readable(pendingFacet.getMessage()));
                pendingFacet = null;
            }
        }

        private void add(SAXParseException e, String reason) {
            problems.add(new ConfigLocation(shownAs, e.getLineNumber(), e.getColumnNumber()).problem(reason));
        }

        private String readable(String message) {
            if (message.startsWith("cvc-elt.1")) {
                // only the root element is declared globally, so this is a wrong root or a
                // missing/wrong xmlns: say so plainly
                return "the root element must be <" + rootElement + " xmlns=\"" + namespace + "\">";
            }
            String reason = RULE_PREFIX.matcher(message).replaceFirst("");
            reason = NAMESPACE_QUALIFIER.matcher(reason).replaceAll("");
            return BRACED_NAMES.matcher(reason).replaceAll("'$1'");
        }

        private static boolean sameSpot(SAXParseException a, SAXParseException b) {
            return a.getLineNumber() == b.getLineNumber() && a.getColumnNumber() == b.getColumnNumber();
        }

        private static String withoutFinalStop(String sentence) {
            return sentence.endsWith(".") ? sentence.substring(0, sentence.length() - 1) : sentence;
        }
    }
}
