/**
 * PEM certificates and keys, read with BouncyCastle, and the checks on them. At the bottom of the module graph
 * beside {@code common}: the Holdfast front end checks the certificates users name with it, and the xDS server reads
 * its own TLS material with it. Nothing here logs or quotes key material.
 */
package io.holdfast.pki;
