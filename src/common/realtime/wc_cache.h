/*
 * realtime/wc_cache.h - the worst-case cache (private to realtime/).
 */
#ifndef DL_RT_WC_CACHE_H
#define DL_RT_WC_CACHE_H

#include "common/realtime/internal.h"

/* Add a worst-case entry to a state whose lock the caller holds (or that
 * nobody else sees). */
int rt_wc_store_locked(struct dl_rt_state *st, const struct rt_wc_entry *e);

#endif
