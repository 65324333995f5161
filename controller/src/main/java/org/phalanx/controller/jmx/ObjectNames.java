package org.phalanx.controller.jmx;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The names Phalanx MBeans are registered under (domain {@code org.phalanx}):
 * <pre>
 * org.phalanx:type=Controller
 * org.phalanx:type=VirtualDatabase,name=VDB
 * org.phalanx:type=Backend,vdb=VDB,name=BACKEND
 * org.phalanx:type=Scheduler,vdb=VDB
 * org.phalanx:type=Cache,vdb=VDB          (only with a result cache)
 * org.phalanx:type=RecoveryLog,vdb=VDB    (only with a recovery log)
 * </pre>
 * Values with characters JMX reserves are quoted ({@link ObjectName#quote}).
 */
public final class ObjectNames {
    public static final String DOMAIN = "org.phalanx";

    private ObjectNames() {
    }

    public static ObjectName controller() {
        return name("type=Controller");
    }

    public static ObjectName virtualDatabase(String vdb) {
        return name("type=VirtualDatabase,name=" + value(vdb));
    }

    public static ObjectName backend(String vdb, String backend) {
        return name("type=Backend,vdb=" + value(vdb) + ",name=" + value(backend));
    }

    public static ObjectName scheduler(String vdb) {
        return name("type=Scheduler,vdb=" + value(vdb));
    }

    public static ObjectName cache(String vdb) {
        return name("type=Cache,vdb=" + value(vdb));
    }

    public static ObjectName recoveryLog(String vdb) {
        return name("type=RecoveryLog,vdb=" + value(vdb));
    }

    /** Every MBean of one virtual database (its own and those of its parts). */
    public static ObjectName allOf(String vdb) {
        return name("vdb=" + value(vdb) + ",*");
    }

    private static String value(String v) {
        for (char c : v.toCharArray()) {
            if (",=:\"*?\n".indexOf(c) >= 0) {
                return ObjectName.quote(v);
            }
        }
        return v;
    }

    private static ObjectName name(String properties) {
        try {
            return new ObjectName(DOMAIN + ":" + properties);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a valid MBean name: " + properties + " (" + e.getMessage() + ")", e);
        }
    }
}
