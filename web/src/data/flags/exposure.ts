import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { ExposureGranularity } from '../../gql/graphql';
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

/** The browser's time zone: days are the user's days. */
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The chart's data, read again every minute; the previous window stays shown while another loads. */
export const useFlagExposure = (name: string, params: ExposureParams) => useQuery({
  queryKey: flagKeys.exposure(name, params),
  queryFn: async () => (await gql(ExposureQuery, { name, ...params, timeZone })).feature.exposure,
  refetchInterval: 60_000,
  placeholderData: keepPreviousData,
});
