/**
 * The demo ({@code it/demo.sh}, {@link io.holdfast.it.demo.DemoMain}): the outage story run locally against the
 * built server, with the test kit's emulated API and grpc-java's xDS client. It lives in {@code it} rather than in
 * the product jar because it needs those test-only pieces; the outage suite reuses its echo backend and xDS call
 * loop.
 */
package io.holdfast.it.demo;
