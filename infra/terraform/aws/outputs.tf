# Read by `terraform output -json` and turned into the Ansible inventory (scenarios/fournines/targets/aws/inventory.py).
locals {
  by_role = {
    for role in keys(local.roles) : role => [
      for name, host in local.hosts : {
        name       = name
        index      = host.index
        type       = host.type
        public_ip  = aws_instance.host[name].public_ip
        private_ip = aws_instance.host[name].private_ip
        id         = aws_instance.host[name].id
      } if host.role == role
    ]
  }
}

output "members" {
  description = "Engine member hosts: name, index (1..members), type, public_ip, private_ip, id."
  value       = local.by_role.member
}

output "brokers" {
  description = "Kafka broker hosts, same fields (the index is the KRaft node.id)."
  value       = local.by_role.broker
}

output "loadgens" {
  description = "Load-generator hosts, same fields."
  value       = local.by_role.loadgen
}

output "ssh_user" {
  description = "The login user of the AMI (Ubuntu)."
  value       = "ubuntu"
}

output "ports" {
  description = "The cluster ports opened within the security group."
  value       = local.cluster_ports
}

output "region" {
  description = "The region the cluster runs in."
  value       = var.region
}

output "stack" {
  description = "The Stack tag on every resource of this cluster."
  value       = var.stack
}
