import type { z } from 'zod';
import { messages } from '@skyport/shared';
import { showToast } from '../ui/toast.tsx';
import { uiLabels } from '../ui/labels.ts';

/**
 * The one client for online-only calls (login, register, password, checkout, reviews…). It
 * parses every answer with a schema, turns failures into `ApiError`, and `reportApiError` decides
 * what a failure shows: a toast with the server's message, or the login page on 401.
 */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The server's error code (`{ code, message }`), or OFFLINE / BAD_RESPONSE from here. */
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isOffline() {
    return this.status === 0;
  }
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Parses the answer (habit: parse at every boundary). Without one the answer is ignored. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function errorFrom(status: number, body: unknown): ApiError {
  if (body && typeof body === 'object') {
    const { code, message, details } = body as {
      code?: unknown;
      message?: unknown;
      details?: unknown;
    };
    if (typeof message === 'string' && message.length > 0) {
      return new ApiError(
        status,
        typeof code === 'string' ? code : `HTTP_${status}`,
        message,
        details,
      );
    }
  }
  return new ApiError(status, `HTTP_${status}`, messages.somethingWentWrong);
}

/** Calls `/api{path}` on this origin with the session cookie; JSON in, JSON out. */
export async function apiRequest<T = void>(
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const {
    method = options.body === undefined ? 'GET' : 'POST',
    body,
    schema,
    signal,
    headers = {},
  } = options;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      signal,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError(0, 'OFFLINE', uiLabels.onlineOnly);
  }
  const text = await response.text();
  let json: unknown = undefined;
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch {
      if (response.ok)
        throw new ApiError(response.status, 'BAD_RESPONSE', messages.somethingWentWrong);
    }
  }
  if (!response.ok) throw errorFrom(response.status, json);
  if (!schema) return undefined as T;
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new ApiError(
      response.status,
      'BAD_RESPONSE',
      messages.somethingWentWrong,
      parsed.error.issues,
    );
  return parsed.data;
}

type Navigate = (to: string) => void;
let navigateTo: Navigate = (to) => window.location.assign(to);

/** The router registers its navigate function so that errors can redirect without a reload. */
export function setApiNavigator(navigate: Navigate) {
  navigateTo = navigate;
}

/**
 * Shows what an API failure means to the user: a 401 goes to the login page, anything else is a
 * toast with the server's message (which comes from the shared catalogue) or `fallback`.
 */
export function reportApiError(
  error: unknown,
  fallback: string = messages.somethingWentWrong,
): void {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  if (error instanceof ApiError) {
    if (error.status === 401) {
      navigateTo('/login');
      return;
    }
    showToast(error.message || fallback, 'error');
    return;
  }
  showToast(fallback, 'error');
}

/** The text of a failure, for forms that show it inline instead of as a toast. */
export function errorMessage(
  error: unknown,
  fallback: string = messages.somethingWentWrong,
): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
