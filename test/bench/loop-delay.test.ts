import { histogramIncrease, histogramP99Ms, loopDelayText, parseHistogram } from '../../bench/loop-delay';

/** A /metrics exposition with the ingest loop's histogram, its cumulative bucket counts given by upper bound. */
function exposition(buckets: Array<[string, number]>, labels = ''): string {
  return [
    '# HELP noti_receiver_ingest_loop_delay_seconds The ingest loop\'s delay',
    '# TYPE noti_receiver_ingest_loop_delay_seconds histogram',
    ...buckets.map(([le, count]) => `noti_receiver_ingest_loop_delay_seconds_bucket{${labels}le="${le}"} ${count}`),
    `noti_receiver_ingest_loop_delay_seconds_sum 1.5`,
    `noti_receiver_ingest_loop_delay_seconds_count ${buckets.at(-1)![1]}`,
    'noti_receiver_other_seconds_bucket{le="0.001"} 99',
  ].join('\n');
}

describe('the isolation bench\'s reading of the ingest loop\'s delay', () => {
  it('takes the p99 of what a run added, bucket by bucket, interpolated within its bucket', () => {
    const before = parseHistogram(exposition([['0.001', 1000], ['0.005', 1000], ['0.01', 1000], ['+Inf', 1000]]));
    // The run added 100 samples: 50 under 1 ms, 48 more under 5 ms, 2 between 5 and 10 ms.
    const after = parseHistogram(exposition([['0.001', 1050], ['0.005', 1098], ['0.01', 1100], ['+Inf', 1100]]));
    const p99 = histogramP99Ms(histogramIncrease(before, after)!);
    // Rank 99 of 100 lies halfway through the 5-10 ms bucket's two samples.
    expect(p99).toEqual({ ms: 7.5, beyond: false });
    // Without the difference, the thousand earlier samples under 1 ms would hide the run's.
    expect(histogramP99Ms(after!)!.ms).toBeLessThan(5);
  });

  it('sums the buckets of every label set, and leaves other metrics alone', () => {
    const text = `${exposition([['0.001', 10], ['+Inf', 10]], 'thread="ingest",')}\n${exposition([['0.001', 5], ['+Inf', 7]], 'thread="other",')}`;
    expect([...parseHistogram(text)!]).toEqual([[0.001, 15], [Infinity, 17]]);
  });

  it('says a p99 past the last bound is beyond it', () => {
    const after = parseHistogram(exposition([['0.001', 0], ['0.01', 0], ['+Inf', 100]]));
    expect(histogramP99Ms(after!)).toEqual({ ms: 10, beyond: true });
    expect(loopDelayText(null, after).text).toBe('> 10.0 ms');
  });

  it('reads n/a from a build without the metric, and no samples from a run that added none', () => {
    expect(parseHistogram('nodejs_eventloop_lag_seconds 0.002\n')).toBeNull();
    expect(loopDelayText(null, null)).toEqual({ text: 'n/a', ms: null });
    const same = parseHistogram(exposition([['0.001', 4], ['+Inf', 4]]));
    expect(loopDelayText(same, same)).toEqual({ text: 'no samples', ms: null });
  });
});
