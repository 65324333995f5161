package org.phalanx.controller.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One element of a validated configuration file, with where it is, so checks made after
 * schema validation can still point the user at the spot.
 *
 * @param location           where its start tag ends (as StAX and the schema validator report it)
 * @param attributeLocations where each attribute's name is written, by local name (may miss some)
 */
record XmlElement(String name, Map<String, String> attributes, ConfigLocation location,
                  Map<String, ConfigLocation> attributeLocations, List<XmlElement> children) {

    /** Where an attribute is written, or the element's location if that is not known. */
    ConfigLocation location(String attributeName) {
        return attributeLocations.getOrDefault(attributeName, location);
    }

    String attribute(String attributeName, String defaultValue) {
        return attributes.getOrDefault(attributeName, defaultValue);
    }

    /** An xs:boolean attribute (the schema admits true, false, 1 and 0). */
    boolean flag(String attributeName, boolean defaultValue) {
        String value = attributes.get(attributeName);
        return value == null ? defaultValue : value.trim().equals("true") || value.trim().equals("1");
    }

    /** An attribute the schema requires. */
    String required(String attributeName) {
        String value = attributes.get(attributeName);
        if (value == null) {
            throw new IllegalStateException(location + ": schema let <" + name + "> through without " + attributeName);
        }
        return value;
    }

    List<XmlElement> children(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).toList();
    }

    Optional<XmlElement> child(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).findFirst();
    }
}
