/** Where the data directory lives on EC2. The value is also the `ec2Storage` context key. */
export enum Ec2Storage {
  /** The shared EFS file system, through the plugin's access point: survives every instance replacement. */
  EFS = 'efs',
  /** An encrypted EBS volume at the plugin's `ebsDeviceName()`. */
  EBS = 'ebs',
}
