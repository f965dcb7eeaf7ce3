import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { ExposureGranularity } from '../../gql/graphql';
import { rangeOf } from '../../logic/exposure';
import { flagKeys } from '../keys';

// The flag page's exposure chart (issue 44): the counts, the application choices and the flag's changes of a window,
// in one request.
const ExposureQuery = graphql(`
  query FlagExposure($name: String!, $hoursBack: Int!, $granularity: ExposureGranularity!, $appName: String, $environment: String, $timeZone: String) {
    feature(name: $name) {
      exposure(hoursBack: $hoursBack, granularity: $granularity, appName: $appName, environment: $environment, timeZone: $timeZone) {
        from to granularity periods environments applications
        buckets { timestamp environment yes no variants { name count } }
        changes { id type createdAt createdBy environment data preData }
      }
    }
  }
`);

export interface ExposureParams {
  hoursBack: number;
  granularity: ExposureGranularity;
  appName: string | null;
  environment: string | null;
}

/** The address parameters that choose the chart's window and filters (FlagExposure keeps them in the URL). */
export const EXPOSURE_URL_STATE = ['range', 'per', 'show', 'app', 'env'] as const;

/** The request's parameters from the address: 24 hours per hour over every application and environment by default. */
export function exposureParamsOf(get: (name: (typeof EXPOSURE_URL_STATE)[number]) => string | null): ExposureParams {
  return { hoursBack: rangeOf(get('range')).hoursBack, granularity: get('per') === 'day' ? 'day' : 'hour', appName: get('app') || null, environment: get('env') || null };
}

/** The browser's time zone: days are the user's days. */
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The chart's data, as the page reads it and as the flag's route asks for it on entering (routing/prefetch.ts); fresh
 * for a few seconds so the page's mount does not ask again.
 */
export const exposureQuery = (name: string, params: ExposureParams) => queryOptions({
  queryKey: flagKeys.exposure(name, params),
  queryFn: async () => (await gql(ExposureQuery, { name, ...params, timeZone })).feature.exposure,
  staleTime: 5_000,
});

/** The chart's data, read again every minute; the previous window stays shown while another loads. */
export const useFlagExposure = (name: string, params: ExposureParams) => useQuery({
  ...exposureQuery(name, params),
  refetchInterval: 60_000,
  placeholderData: keepPreviousData,
});
