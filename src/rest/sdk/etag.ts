/**
 * Whether an `If-None-Match` header (a list of entity tags, weak or strong, or `*`) names one of `etags`: the weak
 * comparison RFC 9110 asks for a GET's 304. Both SDK doors answer revalidations with it.
 */
export function ifNoneMatchNames(header: string | undefined, ...etags: string[]): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || etags.includes(tag.startsWith('W/') ? tag.slice(2) : tag);
  });
}
