// `spec.gateway` and `status.gateway`: one endpoint per model through a Gateway API Gateway. Declared once
// like the rest of the spec (api/crd/model-deployment-schema.ts takes them in); what the controller
// renders from them is providers/shared/gateway.ts, and docs/gateway.md says how a client selects a model.

import { DNS_LABEL_PATTERN, MAX_DNS_LABEL_LENGTH, MAX_OBJECT_NAME_LENGTH, OBJECT_NAME_DESCRIPTION, OBJECT_NAME_PATTERN } from '../common/patterns.ts';
import { bool, listOf, object, str } from '../schema/typed.ts';
import { STORAGE_PATTERN_DESCRIPTIONS } from './storage-schema.ts';

const objectName = (description: string) => str(description, { maxLength: MAX_OBJECT_NAME_LENGTH, pattern: OBJECT_NAME_PATTERN, what: OBJECT_NAME_DESCRIPTION });

export const gatewaySpecSchema = object('Routing through a Gateway API Gateway: an HTTPRoute per deployment to its serving Service (see docs/gateway.md).', {
  enabled: bool(
    'Whether the controller routes this deployment through a Gateway. Left out: on when a Gateway is found (the gatewayRef, the controller\'s --gateway-name, or the one Gateway of the cluster), off otherwise.',
  ),
  gatewayRef: object(
    'The Gateway for this deployment, instead of the controller\'s default.',
    {
      name: objectName('Name of the Gateway.'),
      namespace: str('Namespace of the Gateway (defaults to the deployment\'s).', { maxLength: MAX_DNS_LABEL_LENGTH, pattern: DNS_LABEL_PATTERN, what: STORAGE_PATTERN_DESCRIPTIONS[DNS_LABEL_PATTERN] }),
    },
    { required: ['name'] },
  ),
  httpRouteRef: objectName('Name of an HTTPRoute of yours in this namespace: the controller creates no route and reports the status of that one, for the Gateway its parentRefs name.'),
  modelName: str('The model name clients send (header X-Gateway-Model-Name, or the body\'s "model" with a body-based router). Defaults to the name the server answers to (model.servedName, by default the last segment of a HuggingFace id); for source custom, model.id; else the deployment\'s name.', {
    maxLength: 256,
    minLength: 1,
  }),
});

export const gatewayStatusSchema = object('Where the deployment is reached through its Gateway (written by the provider).', {
  endpoint: str('The URL a client calls (the Gateway\'s address and listener port), empty until the Gateway reports an address.'),
  modelName: str('The model name the route matches (header X-Gateway-Model-Name).'),
  gatewayName: str('The Gateway the route is attached to.'),
  gatewayNamespace: str('Namespace of that Gateway.'),
  apiFormats: listOf('API formats the endpoint serves, e.g. openai.', str(undefined)),
});
