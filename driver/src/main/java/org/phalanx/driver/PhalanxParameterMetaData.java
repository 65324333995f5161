package org.phalanx.driver;

import java.sql.ParameterMetaData;
import java.sql.SQLException;

/**
 * What the driver knows about parameters without asking a backend: how many there are, and
 * that they are IN parameters. Type questions would need a server-side prepare, so they are refused.
 */
final class PhalanxParameterMetaData implements ParameterMetaData {
    private final int count;

    PhalanxParameterMetaData(int count) {
        this.count = count;
    }

    private void check(int param) throws SQLException {
        if (param < 1 || param > count) {
            throw SqlExceptions.create("parameter index " + param + " is out of range 1.." + count,
                    SqlExceptions.INVALID_DESCRIPTOR_INDEX);
        }
    }

    private SQLException typeUnknown(int param) throws SQLException {
        check(param);
        return SqlExceptions.notSupported("parameter type information (statements are not prepared on the server)");
    }

    @Override
    public int getParameterCount() {
        return count;
    }

    @Override
    public int isNullable(int param) throws SQLException {
        check(param);
        return parameterNullableUnknown;
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        throw typeUnknown(param);
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        throw typeUnknown(param);
    }

    @Override
    public int getScale(int param) throws SQLException {
        throw typeUnknown(param);
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        throw typeUnknown(param);
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        throw typeUnknown(param);
    }

    @Override
    public String getParameterClassName(int param) throws SQLException {
        throw typeUnknown(param);
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        check(param);
        return parameterModeIn;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlExceptions.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
