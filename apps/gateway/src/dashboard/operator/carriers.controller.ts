import { Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { QUEUE_RUNTIME_OPTIONS, QueueProducer, readBindStates, readCarrierHealth, type QueueRuntimeOptions } from '@mp/queue-runtime';
import { CarrierStore } from '@mp/routing';
import { carrierHealthAcross, shownCarrierHealth } from '@mp/routing-domain';
import { DataSource } from 'typeorm';
import { ApiUnavailable } from '../../openapi/error-responses';
import { DashboardController, Needs } from '../dashboard-session.guard';
import { OperatorCarrierListDto } from './carriers.dto';

/**
 * The carriers for operators: each one of the carriers table (never its password) with the binds
 * and the health the live sms-dispatchers publish to Redis (decisions 0038 and 0060), as
 * `admin carrier:list` shows them.
 */
@DashboardController('operator')
export class OperatorCarriersController {
  private readonly carriers: CarrierStore;

  constructor(
    db: DataSource,
    private readonly queues: QueueProducer,
    @Inject(QUEUE_RUNTIME_OPTIONS) private readonly options: QueueRuntimeOptions,
  ) {
    this.carriers = new CarrierStore(db);
  }

  @Get('carriers')
  @Needs('operator.companies')
  @ApiOperation({
    summary: 'Carriers with their binds and health (operators only)',
    description:
      'Every carrier, its binds as the live sms-dispatchers report them, and its health over the last five minutes summed over those dispatchers: submits per second, throttled and error rates, delivered share, mean receipt latency, and whether any dispatcher judges it degraded (it then gets probe traffic only from that dispatcher). Health is null for a carrier no live dispatcher reports.',
  })
  @ApiOkResponse({ type: OperatorCarrierListDto, description: 'The carriers, by name' })
  @ApiUnavailable('Redis is unreachable')
  async list(): Promise<OperatorCarrierListDto> {
    const listed = await this.carriers.list();
    const redis = this.queues.redis();
    const [binds, reports] = await Promise.all([readBindStates(redis, this.options.prefix), readCarrierHealth(redis, this.options.prefix)]);
    const health = carrierHealthAcross(reports);
    return {
      items: listed.map((carrier) => {
        const own = binds.filter((bind) => bind.route === carrier.name);
        const across = health.get(carrier.name);
        return {
          name: carrier.name,
          host: carrier.host,
          port: carrier.port,
          system_id: carrier.systemId,
          system_type: carrier.systemType,
          tls: carrier.tls,
          enabled: carrier.enabled,
          binds: carrier.binds,
          bound: own.filter((bind) => bind.state === 'bound').length,
          bind_states: own.map(({ bind, dispatcher, state, since }) => ({ bind, dispatcher, state, since })),
          health: across ? shownCarrierHealth(across) : null,
        };
      }),
      read_at: new Date().toISOString(),
    };
  }
}
