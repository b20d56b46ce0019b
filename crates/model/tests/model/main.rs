//! Test binary `model` of the pure crate (21 modules): the printer, the pod and workload
//! models, the container spec, and the diagnosis with its knowledge base, over the case corpus
//! and hand-built objects. Links no async runtime.

#[path = "../container_spec_support/mod.rs"]
mod container_spec_support;
#[path = "../diagnosis_support/mod.rs"]
mod diagnosis_support;
#[path = "../printer_vectors/mod.rs"]
mod printer_vectors;
#[path = "../workload_support/mod.rs"]
mod workload_support;

mod diagnosis_config;
mod diagnosis_evidence;
mod diagnosis_image_names;
mod diagnosis_images;
mod diagnosis_mounts;
mod diagnosis_node_lost;
mod diagnosis_pod_level;
mod diagnosis_scheduling;
mod kb_app;
mod kb_images;
mod kb_kubelet_scheduler;
mod kb_network_volumes;
mod model_cases;
mod model_container_spec;
mod model_pod;
mod model_printer;
mod model_probe;
mod model_timeline;
mod model_workload;
mod model_workload_choice;
mod model_workload_diagnosis;
mod model_workload_job;
mod model_workload_summary;
