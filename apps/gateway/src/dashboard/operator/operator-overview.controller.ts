import { Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { QUEUE_RUNTIME_OPTIONS, QueueProducer, readBindStates, readQueueDepths, type QueueRuntimeOptions } from '@mp/queue-runtime';
import { ApiUnavailable } from '../../openapi/error-responses';
import { DashboardController, Needs } from '../dashboard-session.guard';
import { OperatorOverviewDto } from './operator.dto';

/** The platform at a glance for operators: how deep each queue is, and the SMSC binds the sms-dispatchers hold. */
@DashboardController('operator')
export class OperatorOverviewController {
  constructor(
    private readonly queues: QueueProducer,
    @Inject(QUEUE_RUNTIME_OPTIONS) private readonly options: QueueRuntimeOptions,
  ) {}

  @Get('overview')
  @Needs('operator.companies')
  @ApiOperation({
    summary: 'Queue depths and SMSC binds (operators only)',
    description:
      "Each queue's waiting, active, delayed and failed jobs (BullMQ's counts), and every bind of every live sms-dispatcher as it last published it: its route, SMSC, state and since when.",
  })
  @ApiOkResponse({ type: OperatorOverviewDto, description: 'The overview' })
  @ApiUnavailable('Redis is unreachable')
  async overview(): Promise<OperatorOverviewDto> {
    // The counts first: they wait for the producer's connection to be ready, which the bind read (a plain command) does not.
    const queues = await readQueueDepths((name) => this.queues.queue(name));
    const binds = await readBindStates(this.queues.redis(), this.options.prefix);
    return {
      queues,
      binds: binds.map((bind) => ({
        route: bind.route,
        bind: bind.bind,
        smsc: bind.target,
        dispatcher: bind.dispatcher,
        state: bind.state,
        since: bind.since,
      })),
      read_at: new Date().toISOString(),
    };
  }
}
