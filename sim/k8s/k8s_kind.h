/* k8s_kind.h — the fake Kubernetes API server as a server kind ("kubernetes"): k8s_kind.c. */
#ifndef LOCKLAB_K8S_KIND_H
#define LOCKLAB_K8S_KIND_H

#include "server_kind.h"

extern const server_kind k8s_kind;

#endif
