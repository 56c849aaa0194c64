// `GET /connection`: the space, its time zone and local time, the service's UTC clock.
import type { ApiRouter } from '../http/router.js';
import { friendlyDate, localDateTime, utcSeconds } from '../dates.js';
import { appUrlTemplate } from '../model/blockJson.js';

export function registerConnection(api: ApiRouter): void {
  api.get('/connection', (ctx) => ({
    space: {
      id: ctx.space.id,
      name: ctx.space.name,
      timezone: ctx.space.timezone,
      time: localDateTime(ctx.now, ctx.space.timezone),
      friendlyDate: friendlyDate(ctx.now, ctx.space.timezone),
    },
    utc: { time: utcSeconds(ctx.now) },
    urlTemplates: { app: appUrlTemplate(ctx.space.id) },
  }));
}
