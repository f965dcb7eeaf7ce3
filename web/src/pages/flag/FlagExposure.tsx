import { Card, Group, Loader, SegmentedControl, Select, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { EXPOSURE_URL_STATE, exposureParamsOf, useFlagExposure } from '../../data/flags/exposure';
import { RANGES, rangeOf } from '../../logic/exposure';
import { useUrlState } from '../../routing/useUrlState';
import { ExposureTables } from './ExposureTables';

// The chart and its library are a chunk of their own, asked for as soon as the flag page's code runs (not when the
// data has come): the page shows it on its overview. The first route never loads it.
// Once it has come, it is rendered directly: React.lazy suspends once more even for a resolved chunk, and React holds a
// revealed Suspense boundary back for a few hundred milliseconds.
type ChartComponent = (typeof import('./ExposureChart'))['default'];
let LoadedChart: ChartComponent | null = null;
const chart = import('./ExposureChart').then((m) => { LoadedChart = m.default; return m; });
const LazyChart = lazy(() => chart);

/**
 * The flag's exposure (issue 44): how often SDKs evaluated it to on and off (or handed out each variant) per hour or
 * day in each environment over the chosen range, by application and environment, with the flag's own changes on the
 * time axis, and the same numbers as tables.
 */
export function FlagExposure({ featureName, environments }: { featureName: string; environments: readonly string[] }) {
  // The section's choices are kept in the address, so a shared link shows the same chart.
  const [url, setUrl] = useUrlState(EXPOSURE_URL_STATE);
  const range = rangeOf(url.range);
  const params = exposureParamsOf((name) => url[name]);
  const view = url.show === 'variants' ? 'variants' : 'onoff';
  const exposure = useFlagExposure(featureName, params);
  const data = exposure.data;
  const appChoices = [...new Set([...(data?.applications ?? []), ...(url.app ? [url.app] : [])])];
  const envChoices = [...new Set([...environments, ...(data?.environments ?? []), ...(url.env ? [url.env] : [])])];

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="flag-exposure" data-loading={exposure.isFetching || undefined}>
      <Title order={2} size="h4" id="flag-exposure" mb="sm">Exposure</Title>
      <Group gap="sm" align="flex-end" mb="sm">
        <SegmentedControl aria-label="Time range" size="xs" value={range.value} data={RANGES.map((r) => ({ value: r.value, label: r.label }))}
          onChange={(v) => setUrl({ range: v === '24h' ? null : v })} />
        <SegmentedControl aria-label="Periods" size="xs" value={params.granularity}
          data={[{ value: 'hour', label: 'Per hour' }, { value: 'day', label: 'Per day' }]} onChange={(v) => setUrl({ per: v === 'day' ? v : null })} />
        <SegmentedControl aria-label="Bars" size="xs" value={view}
          data={[{ value: 'onoff', label: 'On / off' }, { value: 'variants', label: 'Variants' }]} onChange={(v) => setUrl({ show: v === 'variants' ? v : null })} />
      </Group>
      <Group gap="sm" align="flex-end" mb="sm">
        <Select label="Application" placeholder="All applications" clearable searchable size="xs" w={220} data={appChoices} value={url.app}
          onChange={(v) => setUrl({ app: v })} nothingFoundMessage="No application reported it" />
        <Select label="Environment" placeholder="All environments" clearable size="xs" w={200} data={envChoices} value={url.env}
          onChange={(v) => setUrl({ env: v })} />
      </Group>
      <ErrorNotice error={exposure.error} />
      {exposure.isPending && <Loader size="sm" aria-label="Loading exposure" />}
      {data && (
        <>
          {data.environments.length === 0
            ? <Text size="sm" c="dimmed">No SDK reported this flag {url.app || url.env ? 'with these filters ' : ''}in the last {range.label}.</Text>
            : (
              LoadedChart ? <LoadedChart exposure={data} view={view} /> : (
                <Suspense fallback={<Loader size="sm" aria-label="Loading the chart" />}>
                  <LazyChart exposure={data} view={view} />
                </Suspense>
              )
            )}
          <ExposureTables exposure={data} />
        </>
      )}
    </Card>
  );
}
