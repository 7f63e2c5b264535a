/**
 * The source-independent pipeline both file mode and Kubernetes mode run: a whole config from a source goes
 * through the front end into the IR, is translated, served as one snapshot, and its statuses land on the
 * {@link io.holdfast.pipeline.StatusBoard}, which also attributes the proxies' NACKs to the objects they came from
 * ({@code NackAttribution}). Entry point: {@link io.holdfast.pipeline.ConfigPipeline#apply}.
 *
 * <p>Module {@code pipeline}: imports {@code api}, {@code ir}, {@code frontend-holdfast} and {@code xds}; the
 * sources and the wiring ({@code server}) import it, so neither mode reaches into another module's internals.
 * One source thread calls {@code apply}; the board is thread-safe.
 */
package io.holdfast.pipeline;
