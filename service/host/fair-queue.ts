/**
 * Requests taken in turn by client, on the Node host. One Node process serves everyone from one
 * event loop: 32 connections from one address would otherwise have 32 requests handled in each
 * turn of the loop (and 32 renders back to back when they miss the kept copies) while every
 * other client waits. Here each client (its quota key: an IPv4 address, an IPv6 /64) has at
 * most `perClient` calls running; clients with calls waiting take turns in the order they became
 * able to run one (round robin, constant work per call however many clients wait); at most
 * `concurrency` run at once; and a waiting call starts only once the event loop has turned after
 * the last one ended (setImmediate), so what arrived meanwhile from other clients is served
 * between two requests of one client.
 *
 * server.ts uses two: every read (GET, HEAD) of a client in turn, and the function calls among
 * them at most four at once. Requests with a body (enquiries, MCP, agent registration) are not
 * held in line: a client that sends its body slowly would hold its place; those paths have
 * quotas of their own.
 */
interface Lane {
  running: number;
  waiting: (() => void)[];
}

export class FairQueue {
  readonly #concurrency: number;
  readonly #perClient: number;
  /** Clients with calls running or waiting. */
  readonly #lanes = new Map<string, Lane>();
  /** Clients with a call that could start, in the order they became able to: the first goes next. */
  readonly #ready = new Set<Lane>();
  #running = 0;
  #pumpScheduled = false;

  constructor({ concurrency = 4, perClient = 1 }: { concurrency?: number; perClient?: number } = {}) {
    this.#concurrency = concurrency;
    this.#perClient = perClient;
  }

  /** Calls waiting, over every client. */
  get waiting(): number {
    let count = 0;
    for (const lane of this.#lanes.values()) count += lane.waiting.length;
    return count;
  }

  /** True when a call of `client` would start at once: nothing of its waits and there is room. */
  isFree(client: string): boolean {
    if (this.#running >= this.#concurrency) return false;
    const lane = this.#lanes.get(client);
    return !lane || (lane.waiting.length === 0 && lane.running < this.#perClient);
  }

  /** Runs `task` in `client`'s turn: at once when nothing of that client waits and there is room. */
  run<T>(client: string, task: () => Promise<T>): Promise<T> {
    let lane = this.#lanes.get(client);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      this.#lanes.set(client, lane);
    }
    const own = lane;
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#running += 1;
        own.running += 1;
        // Through an async function, a task that throws at once rejects like one that fails later.
        const settled = (async () => task())();
        settled.then(resolve, reject).finally(() => {
          this.#running -= 1;
          own.running -= 1;
          if (own.waiting.length > 0) this.#ready.add(own);
          else if (own.running === 0 && this.#lanes.get(client) === own) this.#lanes.delete(client);
          if (this.#ready.size > 0) this.#schedulePump();
        });
      };
      if (own.waiting.length === 0 && own.running < this.#perClient && this.#running < this.#concurrency)
        return start();
      own.waiting.push(start);
      // Waiting for room rather than for its own call: in line at once. Otherwise its running call's end puts it in line.
      if (own.running < this.#perClient) this.#ready.add(own);
    });
  }

  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  /** Starts waiting calls while there is room, the client longest in line first. */
  #pump(): void {
    while (this.#running < this.#concurrency && this.#ready.size > 0) {
      const lane = this.#ready.values().next().value!;
      this.#ready.delete(lane);
      if (lane.running >= this.#perClient || lane.waiting.length === 0) continue;
      lane.waiting.shift()!();
      // To the back of the line when it may run more at once and still has calls waiting.
      if (lane.waiting.length > 0 && lane.running < this.#perClient) this.#ready.add(lane);
    }
  }
}
