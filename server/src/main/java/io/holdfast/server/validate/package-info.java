/** {@code holdfast validate}: config files checked by the server's own parser and validation, no cluster needed. */
package io.holdfast.server.validate;
