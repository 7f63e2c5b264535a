/** What the server reports about the TLS certificates it serves (expiry in /state and metrics). */
package io.holdfast.server.tls;
