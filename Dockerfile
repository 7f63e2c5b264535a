# Holdfast's container image: the shaded jar (server/target/holdfast.jar) on a Java 17 runtime; no JDK, no
# Maven, no shell tools of ours. Build the jar first; scripts/build-image.sh does both:
#   mvn -B -pl server -am package -DskipTests
#   docker build -t holdfast:<version> .
# ImageBuildTest checks this file without a Docker engine: a JRE base, a numeric non-root user, the jar's path.
FROM eclipse-temurin:17-jre

LABEL org.opencontainers.image.title="holdfast" \
      org.opencontainers.image.description="Envoy control plane for Kubernetes that keeps serving through API outages" \
      org.opencontainers.image.licenses="Apache-2.0"

# Owned by root and read-only for the process: the running user cannot replace its own code.
COPY --chown=0:0 --chmod=0444 server/target/holdfast.jar /opt/holdfast/holdfast.jar

# The user deploy/deployment.yaml runs as (runAsUser/runAsGroup 10001); numeric, so that Kubernetes'
# runAsNonRoot can verify it without an /etc/passwd entry.
USER 10001:10001

# xDS, admin (status page, /metrics), admission webhook.
EXPOSE 18000 9091 9443

ENTRYPOINT ["java", "-jar", "/opt/holdfast/holdfast.jar"]
