# Shared by the probe scripts (source it, then call run_probe): builds the server jar when missing, compiles lake-it's
# test classes, resolves their classpath and runs one probe main from them in a JVM with its own temporary folders.
#
#   run_probe NAME MAIN_CLASS DIR_FLAG DIR_NAME [ARGS...]
#
# NAME names the work folder (removed on exit); the probe gets DIR_FLAG <work>/DIR_NAME, then ARGS.
# MVN_FLAGS defaults to -o (offline, using ~/.m2); set MVN_FLAGS= to let Maven download.

run_probe() {
  local name="$1" main_class="$2" dir_flag="$3" dir_name="$4"
  shift 4
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  cd "$root"
  local mvn_flags="${MVN_FLAGS--o}"
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/lake-$name.XXXXXX")"
  trap 'rm -rf "$WORK"' EXIT

  if [[ ! -f lake-flight-server/target/lake-server.jar && ! -f lib/lake-server.jar ]]; then
    echo "probe: building the server jar" >&2
    ./mvnw -B -q $mvn_flags -DskipTests package -pl lake-flight-server -am >&2
  fi
  echo "probe: compiling lake-it test classes and resolving the classpath" >&2
  ./mvnw -B -q $mvn_flags -pl lake-it test-compile >&2
  ./mvnw -B -q $mvn_flags -pl lake-it dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$WORK/classpath.txt" >&2

  mkdir -p "$WORK/tmp" "$WORK/data" "$WORK/nodes"
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  "$java" --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$WORK/tmp" -Duser.timezone=UTC \
    -Dlake.project.root="$root" \
    -cp "$root/lake-it/target/test-classes:$(cat "$WORK/classpath.txt")" \
    "$main_class" "$dir_flag" "$WORK/$dir_name" "$@"
}
