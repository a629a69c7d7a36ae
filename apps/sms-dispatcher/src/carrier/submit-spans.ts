import { Injectable } from '@nestjs/common';
import { RecentSpans } from '@mp/observability';

/**
 * The submit_sm span of each recent part, by carrier message id: a part's delivery receipt,
 * which arrives later on any bind, continues the trace of its submit from here. In this process's
 * memory, the last 100,000 parts; filled only while tracing (docs/decisions/0043).
 */
@Injectable()
export class SubmitSpans extends RecentSpans {
  constructor() {
    super(100_000);
  }
}
