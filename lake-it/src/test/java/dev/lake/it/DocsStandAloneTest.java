package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The design lives in the repository (docs/architecture.md, first lines): code and build files cite docs/ or nothing,
 * every page they cite exists, and docs/architecture.md and docs/design.md name only classes and packages a reader
 * can find in the source tree — and name every package there is.
 */
class DocsStandAloneTest {

  private static final Path ROOT = ServerProcess.projectRoot();

  /** Names in backticks that are protocol, library or command words, not lake classes. */
  private static final Set<String> NOT_LAKE_CLASSES = Set.of(
      // Flight SQL RPCs and commands
      "CancelFlightInfo", "CommandStatementIngest", "CreatePreparedStatement", "DoAction", "DoGet", "DoPut",
      "GetFlightInfo", "PollFlightInfo", "ClosePreparedStatement", "FlightRuntimeException",
      // the registries' own transaction primitives
      "ConditionCheck", "TransactWriteItems", "TransactionDB",
      // Lance's
      "ReserveFragments", "CommitConflictException",
      // SQL and shell words written in backticks
      "FROM", "INSERT", "If", "LAKE");

  private static final Pattern CITATION =
      Pattern.compile("(?<![\\w/.-])((?:\\.\\./)*[\\w/.-]*?)(design|facts|conventions)\\.md");
  private static final Pattern DECLARATION =
      Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z][A-Za-z0-9]*)");
  private static final Pattern DOCS_PAGE = Pattern.compile("docs/([\\w-]+\\.(?:md|yaml))");
  private static final Pattern BACKTICKED = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern CLASS_NAME = Pattern.compile("^([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:[#.(].*)?$");
  private static final Pattern PACKAGE_NAME = Pattern.compile("\\b(dev\\.lake(?:\\.[a-z][a-z0-9]*)+)\\b");

  @Test
  void codeCitesOnlyTheRepository() {
    List<String> outside = new ArrayList<>();
    List<String> missingPages = new ArrayList<>();
    for (Path file : sourceAndBuildFiles()) {
      String text = read(file);
      Matcher m = CITATION.matcher(text);
      while (m.find()) {
        boolean inDocs = m.group(1).equals("docs/") && m.group(2).equals("design");
        if (!inDocs) {
          outside.add(ROOT.relativize(file) + ": " + m.group());
        }
      }
      Matcher page = DOCS_PAGE.matcher(text);
      while (page.find()) {
        if (!Files.exists(ROOT.resolve("docs").resolve(page.group(1)))) {
          missingPages.add(ROOT.relativize(file) + ": docs/" + page.group(1));
        }
      }
    }
    assertThat(outside).as("citations of design notes outside the repository (cite docs/ instead)").isEmpty();
    assertThat(missingPages).as("docs/ pages cited that do not exist").isEmpty();
  }

  @Test
  void architectureNamesOnlyWhatExistsAndEveryPackage() {
    Set<String> classes = new TreeSet<>();
    Set<String> packages = new TreeSet<>(); // main code: each must be described
    Set<String> known = new TreeSet<>(); // main and test code: each may be named
    for (Path file : javaFiles()) {
      classes.add(file.getFileName().toString().replace(".java", ""));
      Matcher declared = DECLARATION.matcher(read(file));
      while (declared.find()) {
        classes.add(declared.group(1)); // nested types, e.g. the members of a sealed interface
      }
      String path = file.toString();
      int java = path.indexOf("/java/dev/lake/");
      if (java >= 0) {
        String pkg = path.substring(java + 6, path.lastIndexOf('/')).replace('/', '.');
        known.add(pkg);
        if (path.contains("/src/main/java/")) {
          packages.add(pkg);
        }
      }
    }
    Set<String> unknown = new TreeSet<>();
    Set<String> unknownPackages = new TreeSet<>();
    StringBuilder both = new StringBuilder();
    for (String page : List.of("docs/architecture.md", "docs/design.md")) {
      String text = read(ROOT.resolve(page));
      both.append(text);
      Matcher m = BACKTICKED.matcher(text);
      while (m.find()) {
        for (String word : m.group(1).split("[\\s,/→]+")) {
          Matcher c = CLASS_NAME.matcher(word);
          if (c.matches() && !classes.contains(c.group(1)) && !NOT_LAKE_CLASSES.contains(c.group(1))) {
            unknown.add(page + ": " + c.group(1));
          }
        }
      }
      Matcher p = PACKAGE_NAME.matcher(text);
      while (p.find()) {
        if (!known.contains(p.group(1))) {
          unknownPackages.add(page + ": " + p.group(1));
        }
      }
    }
    assertThat(unknown).as("classes named in the design pages that the source tree does not have").isEmpty();
    assertThat(unknownPackages).as("packages named in the design pages that the source tree does not have").isEmpty();
    String architecture = read(ROOT.resolve("docs/architecture.md"));
    List<String> unnamed = packages.stream().filter(pkg -> !architecture.contains(pkg)).toList();
    assertThat(unnamed).as("packages docs/architecture.md does not describe").isEmpty();
  }

  private static List<Path> javaFiles() {
    return walk(path -> path.toString().endsWith(".java"));
  }

  private static List<Path> sourceAndBuildFiles() {
    return walk(path -> {
      String name = path.getFileName().toString();
      String rel = ROOT.relativize(path).toString();
      if (rel.startsWith("verification/report") || rel.startsWith("docs/")) {
        return false; // the report quotes history; docs/ pages cite each other by their own names
      }
      return name.endsWith(".java") || name.equals("pom.xml") || name.endsWith(".sh") || name.endsWith(".py")
          || rel.startsWith("bin/") || rel.startsWith(".ci/") || name.equals("README.md") || name.equals("goal.md");
    });
  }

  private static List<Path> walk(java.util.function.Predicate<Path> wanted) {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(Files::isRegularFile)
          .filter(path -> {
            String rel = ROOT.relativize(path).toString();
            return !rel.contains("/target/") && !rel.startsWith("target/") && !rel.startsWith(".git/")
                && !rel.contains("node_modules/") && !rel.startsWith(".lake-venv/") && !rel.startsWith(".mvn/");
          })
          .filter(wanted)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
