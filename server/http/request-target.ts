/**
 * A request target (`req.url`) parsed without throwing. Node's HTTP parser hands any bytes through
 * as the target, and `new URL('//[', base)` throws: every listener parses targets here so a
 * malformed one is the client's 400, never an exception that escapes a request handler.
 */
export interface RequestTarget {
  pathname: string;
  searchParams: URLSearchParams;
}

export function parseRequestTarget(target: string | undefined): RequestTarget | undefined {
  try {
    const url = new URL(target ?? '/', 'http://request-target');
    return { pathname: url.pathname, searchParams: url.searchParams };
  } catch {
    return undefined;
  }
}

/** the pathname of a target, or undefined when the target cannot be parsed */
export function requestPathname(target: string | undefined): string | undefined {
  return parseRequestTarget(target)?.pathname;
}

/** one percent-decoded path segment, or undefined when its escapes are malformed (`%`, `%zz`, bad UTF-8) */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
