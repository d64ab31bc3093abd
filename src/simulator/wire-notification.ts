import type { AckForm } from '../http/acks';
import type { NotiType } from '../notifications/event-types';

/** One notification as it goes over the wire: the exact bytes and the ack form they call for. */
export interface WireNotification {
  notiType: NotiType;
  body: Buffer;
  contentType: string;
  ackForm: AckForm;
}
