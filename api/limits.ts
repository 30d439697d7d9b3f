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
