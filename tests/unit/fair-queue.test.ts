import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../service/host/fair-queue.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('FairQueue', () => {
  it('runs one call of a client at a time and takes clients in turn', async () => {
    const queue = new FairQueue({ concurrency: 1 });
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(name);
      await tick();
      return name;
    };
    const calls = [
      ...['a1', 'a2', 'a3', 'a4'].map((name) => queue.run('flooder', task(name))),
      queue.run('bystander', task('b1')),
      queue.run('other', task('c1')),
      queue.run('bystander', task('b2')),
    ];
    expect(await Promise.all(calls)).toEqual(['a1', 'a2', 'a3', 'a4', 'b1', 'c1', 'b2']);
    // The flooder's queue does not hold the others back: each gets the next turn.
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(queue.waiting).toBe(0);
  });

  it('starts at once when the client has nothing running, up to the concurrency', async () => {
    const queue = new FairQueue({ concurrency: 2 });
    let running = 0;
    let most = 0;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    };
    await Promise.all(['a', 'b', 'c', 'd', 'a', 'b'].map((client) => queue.run(client, task)));
    expect(most).toBe(2);
  });

  it('passes failures on and keeps going', async () => {
    const queue = new FairQueue();
    const failing = queue.run('a', async () => {
      throw new Error('boom');
    });
    const thrown = queue.run('a', () => {
      throw new Error('sync boom');
    });
    const next = queue.run('a', async () => 'fine');
    await expect(failing).rejects.toThrow('boom');
    await expect(thrown).rejects.toThrow('sync boom');
    await expect(next).resolves.toBe('fine');
  });

  it('lets the event loop turn between two calls of one client', async () => {
    const queue = new FairQueue();
    const seen: string[] = [];
    const first = queue.run('a', async () => void seen.push('a1'));
    const second = queue.run('a', async () => void seen.push('a2'));
    setImmediate(() => seen.push('other work'));
    await Promise.all([first, second]);
    expect(seen).toEqual(['a1', 'other work', 'a2']);
  });

  it('holds up to perClient calls of one client at once, the others taking their turns between', async () => {
    const queue = new FairQueue({ concurrency: Infinity, perClient: 2 });
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      order.push(name);
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    };
    await Promise.all([
      ...['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => queue.run('a', task(n))),
      queue.run('b', task('b1')),
      queue.run('b', task('b2')),
      queue.run('b', task('b3')),
    ]);
    expect(order.slice(0, 4)).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(order.indexOf('b3')).toBeLessThan(order.indexOf('a5'));
    expect(most).toBe(4);
  });
});
