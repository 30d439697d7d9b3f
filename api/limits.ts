// Numeric bounds of the API that the seed leaves open, and why each has the value it has. The CRD schema
// (api/crd/) enforces the hard ones on the API server; validate() gives the soft ones as warnings.

/**
 * Hard upper bound of every `gpu.count` (per replica, or per prefill/decode worker). A replica is one pod,
 * and a pod's GPUs must all come from one node: the largest GPU servers have 8 (HGX/DGX H100, B200,
 * MI300X) or 16 (HGX-2) physical GPUs, and nodes that share GPUs advertise more devices than that (MIG:
 * up to 7 per GPU, 56 on an 8-GPU server; time-slicing: a configured multiple). 128 leaves room for those
 * and still turns a typo such as 1000 or 10^9 into an error at `kubectl apply` instead of a pod that stays
 * Pending forever.
 */
export const MAX_GPU_COUNT = 128;

/**
 * Above this many GPUs per replica, validation warns (but admits): no GPU server has more than 16
 * physical GPUs, so such a count only schedules on nodes that advertise shared or partitioned GPUs.
 */
export const MAX_GPUS_PER_SERVER = 16;

/**
 * Hard upper bound of every replica count (`scaling.replicas`, `scaling.prefill.replicas`,
 * `scaling.decode.replicas`). Each replica is at least one pod of a model server; Kubernetes supports
 * clusters of at most 5,000 nodes and 150,000 pods. 10,000 is more than any real deployment of model
 * servers and still turns a typo such as 1000000 into an error at `kubectl apply` (or `kubectl scale`)
 * instead of a deployment that reports Running 1000000/1000000 only where operators are simulated.
 */
export const MAX_REPLICAS = 10_000;

/** Above this many replicas validation warns (but admits): a count few clusters can schedule, worth a second look. */
export const MANY_REPLICAS = 100;

/**
 * Most volumes of `spec.model.storage` (the reference implementation's bound): a model cache, a
 * compilation cache and a few claims of the user's. It also bounds the CEL rules that compare every pair
 * of volumes, which the API server must be able to cost before it accepts the CRD.
 */
export const MAX_STORAGE_VOLUMES = 8;
