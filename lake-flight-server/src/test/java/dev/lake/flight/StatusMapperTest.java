package dev.lake.flight;

import dev.lake.flight.grpc.StatusMapper;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.LocationExistsException;
import dev.lake.registry.TableNotFoundException;
import io.grpc.Status;
import org.junit.jupiter.api.Test;

class StatusMapperTest {
  @Test
  void datasetFoundAtAFreshLocationIsAConflictToRetry() {
    assertThat(StatusMapper.codeOf(new LocationExistsException("file:///data/t/g1")))
        .isEqualTo(Status.Code.ABORTED);
  }

  @Test
  void missingTableIsNotFound() {
    assertThat(StatusMapper.codeOf(new TableNotFoundException("t"))).isEqualTo(Status.Code.NOT_FOUND);
  }
}
