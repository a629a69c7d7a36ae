// What a benchmark's HTTP load is made of: the company it sends as, its requests and what it
// answers. Apart from the loads themselves, so the fixed-rate and the paced load can share them.
import type autocannon from 'autocannon';

/** The company that sends every request (its API key and secret, as company:create prints them). */
export interface Company {
  api_key: string;
  api_secret: string;
}

/** What every request of a load is: a POST of a JSON body, made anew for each request. */
export interface LoadRequest {
  company: Company;
  path: string;
  body: () => unknown;
}

/** When each 2xx answer's request was due and how long it took: the paced load keeps them, so a part of its window can be measured afterwards. */
export interface AnswerTimes {
  /** The load's start, in ms since the epoch (the clock of the database's timestamps). */
  startedAtEpochMs: number;
  /** ms after the start that each request was due. */
  dueMs: number[];
  /** Each one's latency in ms, in the same order. */
  latencyMs: number[];
}

export type LoadResult = autocannon.Result & { answerTimes?: AnswerTimes };
